# kata: cross-entropy
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    x = logits if logits.dtype == torch.float64 else logits.float()
    K = x.shape[-1]
    log_probs = torch.log_softmax(x, dim=-1)

    keep = targets != ignore_index
    # gather cannot take ignore_index (it may be -100): point ignored rows at class 0
    safe_targets = targets.masked_fill(~keep, 0)
    nll = -log_probs.gather(1, safe_targets.unsqueeze(1)).squeeze(1)
    smooth = -log_probs.sum(dim=-1) / K

    per_row = (1.0 - label_smoothing) * nll + label_smoothing * smooth
    n_kept = keep.sum().clamp(min=1)
    return (per_row.sum() / n_kept).to(logits.dtype)
