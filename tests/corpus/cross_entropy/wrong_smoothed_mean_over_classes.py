# kata: cross-entropy
# why: the smoothed target distribution q built explicitly, then -(q * log p) averaged over the classes instead of summed
# mistake: smoothed_loss_mean_over_classes
import torch
import torch.nn.functional as F


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    N, K = logits.shape
    x = logits.float() if logits.dtype != torch.float64 else logits
    log_probs = F.log_softmax(x, dim=-1)
    keep = targets != ignore_index
    y = targets.masked_fill(~keep, 0)
    q = torch.full_like(log_probs, label_smoothing / K)
    q.scatter_add_(1, y[:, None], torch.full_like(log_probs[:, :1], 1 - label_smoothing))
    per_row = -(q * log_probs).mean(dim=-1)
    loss = per_row[keep].sum() / max(int(keep.sum()), 1) if keep.any() else (per_row * 0).sum()
    return loss.to(logits.dtype)
