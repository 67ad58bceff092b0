# kata: cross-entropy
# why: a loop that skips rows whose target is negative (padding assumed to be -100 or -1)
# mistake: ignore_mask_negative
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    N, K = logits.shape
    x = logits.double()
    total = x.sum() * 0.0
    kept = 0
    for i in range(N):
        t = int(targets[i])
        if t < 0:
            continue
        lse = torch.logsumexp(x[i], dim=0)
        total = total + (1 - label_smoothing) * (lse - x[i, t]) + label_smoothing * (lse - x[i].mean())
        kept += 1
    return (total / max(kept, 1)).to(logits.dtype)
