# kata: sample-token
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0.0:
        return torch.argmax(logits, dim=-1)
    probs = torch.softmax(logits.double() / temperature, dim=-1)
    cdf = torch.cumsum(probs, dim=-1)
    # one uniform per row, scaled by the row total in case it is not exactly 1
    u = torch.rand(probs.shape[0], 1, dtype=cdf.dtype, device=cdf.device) * cdf[:, -1:]
    idx = torch.searchsorted(cdf, u, right=True).squeeze(-1)
    return idx.clamp(max=logits.shape[-1] - 1)
