# kata: gelu
# why: torch.pi constants inline; the tanh scale is 2 / torch.pi (the root forgotten)
# mistake: two_over_pi_without_root
import torch


def gelu(x, approximate="none"):
    if approximate == "none":
        return x * torch.special.ndtr(x)
    elif approximate == "tanh":
        return x / 2 * (1 + torch.tanh((2 / torch.pi) * (x + 0.044715 * x.pow(3))))
    raise ValueError(approximate)
