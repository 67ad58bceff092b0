# kata: cross-entropy
# why: probabilities first, then .log(), all without leaving float16 / bfloat16
# mistake: log_of_softmax_in_input_dtype
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    probs = logits.softmax(dim=1)
    logp = probs.log()
    mask = targets.ne(ignore_index)
    n = mask.sum()
    picked = logp[torch.arange(len(targets)), targets.clamp(min=0) * mask]
    row = -(1 - label_smoothing) * picked - label_smoothing * logp.mean(1)
    loss = torch.where(mask, row, torch.zeros_like(row)).sum() / torch.clamp(n, min=1)
    return loss
