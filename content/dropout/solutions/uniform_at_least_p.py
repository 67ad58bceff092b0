# kata: dropout
import torch


def dropout(x: torch.Tensor, p: float = 0.5, training: bool = True, generator=None) -> torch.Tensor:
    assert 0.0 <= p <= 1.0, f"p must lie in [0, 1], got {p}"
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return x * 0.0
    u = torch.empty(x.shape, dtype=torch.float32, device=x.device).uniform_(0.0, 1.0, generator=generator)
    survivors = u >= p
    return torch.where(survivors, x / (1.0 - p), torch.zeros_like(x))
