# kata: cross-entropy
# why: row by row, the other classes share eps equally: eps / (K - 1) each
# mistake: smoothing_over_k_minus_1
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    N, K = logits.shape
    x = logits.double()
    total, n = x.sum() * 0, 0
    for i in range(N):
        t = int(targets[i])
        if t == ignore_index:
            continue
        lp = x[i] - torch.logsumexp(x[i], 0)
        others = -(lp.sum() - lp[t])
        total = total + (1 - label_smoothing) * (-lp[t]) + label_smoothing / (K - 1) * others
        n += 1
    return (total / max(n, 1)).to(logits.dtype)
