# kata: cross-entropy
# why: divides by the count as torch does: an all-ignored batch gives 0 / 0 = NaN
# (it also computes float64 logits in float32: two mistakes at once, no single variant explains it)
# mistake: none
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    log_p = torch.log_softmax(logits.float(), dim=-1)
    keep = targets != ignore_index
    y = torch.where(keep, targets, torch.zeros_like(targets))
    nll = -log_p.gather(1, y[:, None]).squeeze(1)
    per_row = (1 - label_smoothing) * nll - label_smoothing * log_p.mean(-1)
    return ((per_row * keep).sum() / keep.sum()).to(logits.dtype)
