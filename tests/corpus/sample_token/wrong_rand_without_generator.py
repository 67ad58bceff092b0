# kata: sample-token
# why: inverse CDF whose uniforms come from torch.rand without generator= (the global RNG)
# mistake: global_rng
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    probs = torch.softmax(logits.double() / temperature, dim=-1)
    cdf = probs.cumsum(dim=-1)
    u = torch.rand(cdf.size(0), 1, dtype=cdf.dtype, device=cdf.device) * cdf[:, -1:]
    return torch.searchsorted(cdf, u).squeeze(-1).clamp(max=logits.size(-1) - 1)
