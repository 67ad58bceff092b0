# kata: cross-entropy
# why: the smoothing term sums -log p over the classes: eps * sum_k, where eps / K * sum_k is meant
# mistake: smoothing_summed_over_classes
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    x = logits.float() if logits.dtype in (torch.float16, torch.bfloat16) else logits
    log_p = torch.log_softmax(x, dim=-1)
    keep = targets != ignore_index
    idx = targets.clone()
    idx[~keep] = 0
    nll = -log_p.gather(1, idx[:, None])[:, 0]
    smooth = -log_p.sum(dim=-1)
    per_row = (1.0 - label_smoothing) * nll + label_smoothing * smooth
    return ((per_row * keep).sum() / keep.sum().clamp(min=1)).to(logits.dtype)
