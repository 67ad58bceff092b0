# kata: cross-entropy
# why: log-sum-exp without taking out the max: exp(1e4) overflows to inf
# mistake: no_max_shift_in_input_dtype
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    N, K = logits.shape
    log_p = logits - torch.log(torch.exp(logits).sum(dim=-1, keepdim=True))
    keep = targets != ignore_index
    y = torch.where(keep, targets, torch.zeros_like(targets))
    nll = -log_p.gather(1, y[:, None]).squeeze(1)
    per_row = (1 - label_smoothing) * nll - label_smoothing * log_p.mean(-1)
    return (per_row * keep).sum() / keep.sum().clamp(min=1)
