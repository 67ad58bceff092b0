# kata: sample-token
# why: Gumbel-max with no T = 0 branch: logits / 0 is ±inf or NaN, and the argmax of that is not the argmax
# mistake: no_greedy
import torch


def sample_token(logits, temperature=1.0, generator=None):
    u = torch.rand(logits.shape, device=logits.device, generator=generator)
    g = -torch.log(-torch.log(u))
    return (logits.float() / temperature + g).argmax(dim=-1)
