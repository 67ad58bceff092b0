# kata: cross-entropy
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    N, K = logits.shape
    x = logits if logits.dtype == torch.float64 else logits.float()
    total = x.sum() * 0  # stays in the graph even when every row is ignored
    count = 0
    for n in range(N):
        y = int(targets[n])
        if y == ignore_index:
            continue
        row = x[n]
        m = row.max().detach()
        lse = m + torch.log(torch.exp(row - m).sum())
        nll = lse - row[y]
        smooth = lse - row.mean()  # mean_k(-log p[k]) = lse - mean_k x_k
        total = total + (1 - label_smoothing) * nll + label_smoothing * smooth
        count += 1
    return (total / max(count, 1)).to(logits.dtype)
