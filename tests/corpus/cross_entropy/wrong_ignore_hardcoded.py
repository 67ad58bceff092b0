# kata: cross-entropy
# why: finds ignored rows with targets < 0, so ignore_index = 0 or K is not honoured
# (it also computes float64 logits in float32: two mistakes at once, no single variant explains it)
# mistake: none
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    log_p = torch.log_softmax(logits.float(), dim=-1)
    keep = targets >= 0
    y = torch.where(keep, targets, torch.zeros_like(targets)).clamp(max=logits.shape[1] - 1)
    nll = -log_p.gather(1, y[:, None]).squeeze(1)
    per_row = (1 - label_smoothing) * nll - label_smoothing * log_p.mean(-1)
    return ((per_row * keep).sum() / keep.sum().clamp(min=1)).to(logits.dtype)
