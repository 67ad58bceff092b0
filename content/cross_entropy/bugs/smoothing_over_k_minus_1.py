# kata: cross-entropy
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    N, K = logits.shape
    log_p = torch.log_softmax(logits.to(torch.promote_types(logits.dtype, torch.float32)), dim=-1)

    keep = targets != ignore_index
    y = torch.where(keep, targets, torch.zeros_like(targets))

    # the smoothed target distribution, one row per example
    with torch.no_grad():
        q = torch.full_like(log_p, label_smoothing / (K - 1))
        q.scatter_(1, y.unsqueeze(1), 1.0 - label_smoothing)

    per_row = -(q * log_p).sum(dim=-1)
    per_row = per_row * keep
    return (per_row.sum() / keep.sum().clamp(min=1)).to(logits.dtype)
