# kata: cross-entropy
# why: returns the sum of the kept rows' losses, not their mean
# mistake: sum_not_mean
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    x = logits if logits.dtype == torch.float64 else logits.float()
    log_p = torch.log_softmax(x, dim=-1)
    keep = targets != ignore_index
    y = torch.where(keep, targets, torch.zeros_like(targets))
    nll = -log_p.gather(1, y[:, None]).squeeze(1)
    per_row = (1 - label_smoothing) * nll - label_smoothing * log_p.mean(-1)
    return (per_row * keep).sum().to(logits.dtype)
