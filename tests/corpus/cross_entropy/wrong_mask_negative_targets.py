# kata: cross-entropy
# why: the kept rows are those with a non-negative target, not those different from ignore_index
# mistake: ignore_mask_negative
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    x = logits.float() if logits.dtype in (torch.float16, torch.bfloat16) else logits
    log_p = torch.log_softmax(x, dim=-1)
    keep = targets >= 0
    safe = torch.where(keep, targets, torch.zeros_like(targets))
    nll = -log_p.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    smooth = -log_p.mean(dim=-1)
    per_row = (1 - label_smoothing) * nll + label_smoothing * smooth
    loss = (per_row * keep).sum() / keep.sum().clamp(min=1)
    return loss.to(logits.dtype)
