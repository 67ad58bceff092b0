# kata: sample-token
import torch
import torch.nn.functional as F


def sample_token(logits, temperature=1.0, generator=None):
    if not temperature:
        return logits.max(dim=-1).indices if logits.size(-1) == 1 else torch.argmax(logits, dim=-1)
    p = F.softmax(logits.float().div(temperature), dim=-1)
    q = torch.empty_like(p).exponential_(generator=generator)
    return p.div(q).argmax(dim=-1)
