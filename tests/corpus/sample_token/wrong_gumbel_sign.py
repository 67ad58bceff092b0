# kata: sample-token
# why: adds log(-log U) instead of subtracting it: a reflected Gumbel, another distribution
# mistake: gumbel_sign
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    noise = torch.log(-torch.log(torch.rand_like(logits, dtype=torch.float32, generator=generator)))
    return torch.argmax(logits.float() / temperature + noise, dim=-1)
