# kata: cross-entropy
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    N, K = logits.shape
    x = logits if logits.dtype in (torch.float32, torch.float64) else logits.float()
    lse = torch.logsumexp(x, dim=1)  # (N,)
    keep = targets != ignore_index
    y = torch.where(keep, targets, torch.zeros_like(targets))
    picked = x[torch.arange(N, device=x.device), y]
    nll = lse - picked
    uniform = lse - x.mean(dim=1)
    per_row = torch.where(keep, (1 - label_smoothing) * nll + label_smoothing * uniform, torch.zeros_like(nll))
    n = keep.sum()
    return (per_row.sum() / torch.clamp(n, min=1)).to(logits.dtype)
