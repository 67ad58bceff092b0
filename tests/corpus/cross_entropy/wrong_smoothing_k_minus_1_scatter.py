# kata: cross-entropy
# why: the smoothed target puts eps / (K - 1) on every wrong class (fairseq, and many blog posts), not eps / K on all
# mistake: smoothing_over_k_minus_1
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    N, K = logits.shape
    x = logits.float() if logits.dtype in (torch.float16, torch.bfloat16) else logits
    log_p = torch.log_softmax(x, dim=1)
    keep = targets != ignore_index
    y = torch.where(keep, targets, 0)
    with torch.no_grad():
        true_dist = torch.full_like(log_p, label_smoothing / (K - 1))
        true_dist.scatter_(1, y.unsqueeze(1), 1.0 - label_smoothing)
    per_row = torch.sum(-true_dist * log_p, dim=1)
    return ((per_row * keep).sum() / keep.sum().clamp(min=1)).to(logits.dtype)
