# kata: cross-entropy
# why: log(softmax(x)) in the logits' own dtype: in float16 small probabilities round to 0 and their log is -inf
# mistake: log_of_softmax_in_input_dtype
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    K = logits.shape[-1]
    log_p = torch.log(torch.softmax(logits, dim=-1))
    keep = targets != ignore_index
    y = torch.where(keep, targets, torch.zeros_like(targets))
    nll = -log_p.gather(1, y[:, None]).squeeze(1)
    per_row = (1 - label_smoothing) * nll - label_smoothing * log_p.sum(-1) / K
    return (per_row * keep).sum() / keep.sum().clamp(min=1)
