# kata: sample-token
# why: hand-written softmax without the max shift: exp(1e4) = inf, inf / inf = NaN, and the race picks token 0
# mistake: no_max_shift
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    w = (logits.float() / temperature).exp()
    p = w / w.sum(-1, keepdim=True)
    e = torch.empty_like(p).exponential_(generator=generator)
    return (p / e).argmax(-1)
