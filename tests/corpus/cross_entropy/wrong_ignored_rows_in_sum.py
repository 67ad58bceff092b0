# kata: cross-entropy
# why: divides by the number of kept rows, but ignored rows (gathered at class 0) stay in the sum
# mistake: ignored_rows_in_sum
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    log_p = torch.log_softmax(logits.float(), dim=-1)
    keep = targets != ignore_index
    y = targets.clamp(0, logits.shape[1] - 1)
    nll = -log_p.gather(1, y[:, None]).squeeze(1)
    per_row = (1 - label_smoothing) * nll - label_smoothing * log_p.mean(-1)
    return (per_row.sum() / keep.sum().clamp(min=1)).to(logits.dtype)
