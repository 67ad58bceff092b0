# kata: sample-token
import torch


def sample_token(logits, temperature=1.0, generator=None):
    B, V = logits.shape
    if temperature == 0.0:
        return logits.argmax(dim=1)
    x = logits.double() / temperature
    x = x - x.max(dim=1, keepdim=True).values
    w = torch.exp(x)
    cdf = torch.cumsum(w, dim=1)
    u = torch.rand(B, 1, dtype=torch.float64, device=logits.device, generator=generator) * cdf[:, -1:]
    idx = torch.searchsorted(cdf, u, right=True).squeeze(1)
    return idx.clamp(max=V - 1).to(torch.int64)
