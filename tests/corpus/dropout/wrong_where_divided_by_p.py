# kata: dropout
# why: the survivors are divided by p instead of by 1 - p (the same at p = 0.5 only)
# mistake: scaled_by_1_over_p
import torch


def dropout(x: torch.Tensor, p: float = 0.5, training: bool = True, generator=None) -> torch.Tensor:
    assert 0.0 <= p <= 1.0
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    u = torch.rand(x.shape, device=x.device, generator=generator)
    return torch.where(u >= p, x / p, torch.zeros_like(x))
