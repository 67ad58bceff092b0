# kata: cross-entropy
# why: log(softmax(x)): a probability that underflows to 0 gives log 0 = -inf
# mistake: log_of_softmax_in_input_dtype
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    log_p = torch.log(torch.softmax(logits, dim=-1))
    keep = targets != ignore_index
    y = torch.where(keep, targets, torch.zeros_like(targets))
    nll = -log_p.gather(1, y[:, None]).squeeze(1)
    per_row = (1 - label_smoothing) * nll - label_smoothing * log_p.mean(-1)
    return (per_row * keep).sum() / keep.sum().clamp(min=1)
