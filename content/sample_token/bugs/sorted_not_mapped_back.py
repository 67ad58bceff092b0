# kata: sample-token
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(-1)
    probs = torch.softmax(logits.float() / temperature, dim=-1)
    sorted_probs = probs.sort(dim=-1, descending=True).values
    cdf = sorted_probs.cumsum(dim=-1)
    u = torch.rand(cdf.shape[0], 1, device=cdf.device, generator=generator)
    pos = torch.searchsorted(cdf, u).clamp(max=cdf.shape[-1] - 1)
    return pos.squeeze(-1)
