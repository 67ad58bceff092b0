# kata: dropout
# why: the whole computation in float64 (uniforms included), the result cast back to x's dtype; eval returns a copy
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError(f"invalid p={p}")
    if not training or p == 0:
        return x.clone()
    u = torch.rand(x.shape, generator=generator, device=x.device, dtype=torch.float64)
    keep = (u < 1 - p).to(torch.float64)
    scale = 0.0 if p == 1 else 1.0 / (1.0 - p)
    return (x.to(torch.float64) * keep * scale).to(x.dtype)
