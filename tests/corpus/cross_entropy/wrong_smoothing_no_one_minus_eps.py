# kata: cross-entropy
# why: adds eps * mean(-log p) to the full nll, without the (1 - eps) on the target term
# mistake: smoothing_without_one_minus_eps
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    log_p = torch.log_softmax(logits.float(), dim=-1)
    keep = targets != ignore_index
    y = torch.where(keep, targets, torch.zeros_like(targets))
    nll = -log_p.gather(1, y[:, None]).squeeze(1)
    per_row = nll - label_smoothing * log_p.mean(-1)
    return ((per_row * keep).sum() / keep.sum().clamp(min=1)).to(logits.dtype)
