# kata: cross-entropy
# why: takes label_smoothing as an argument and never uses it
# mistake: smoothing_ignored
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    x = logits if logits.dtype == torch.float64 else logits.float()
    log_p = torch.log_softmax(x, dim=-1)
    keep = targets != ignore_index
    y = torch.where(keep, targets, torch.zeros_like(targets))
    nll = -log_p.gather(1, y[:, None]).squeeze(1)
    return ((nll * keep).sum() / keep.sum().clamp(min=1)).to(logits.dtype)
