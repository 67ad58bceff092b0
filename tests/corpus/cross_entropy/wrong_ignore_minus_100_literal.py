# kata: cross-entropy
# why: the mask compares with the usual default, -100, instead of the ignore_index argument
# mistake: ignore_index_hardcoded
import torch
import torch.nn.functional as F


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    x = logits.float() if logits.dtype in (torch.float16, torch.bfloat16) else logits
    log_p = F.log_softmax(x, dim=-1)
    valid = targets != -100
    picked = log_p.gather(1, torch.where(valid, targets, 0).clamp(0, x.shape[1] - 1)[:, None])[:, 0]
    row = -(1 - label_smoothing) * picked - label_smoothing * log_p.mean(dim=-1)
    return (row * valid).sum().div(valid.sum().clamp(min=1)).to(logits.dtype)
