# kata: gelu
# why: one line with ndtr whatever approximate says: the tanh form is never computed and unknown names pass
# mistake: approximate_ignored
import torch


def gelu(x, approximate="none"):
    return x * torch.special.ndtr(x)
