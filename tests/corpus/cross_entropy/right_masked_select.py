# kata: cross-entropy
# why: keeps only the kept rows with boolean indexing; an empty selection still sums to an attached 0
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    keep = targets != ignore_index
    x = logits[keep]  # (n, K), n may be 0
    x = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x
    y = targets[keep]
    log_p = x - x.max(dim=-1, keepdim=True).values
    log_p = log_p - log_p.exp().sum(dim=-1, keepdim=True).log()
    nll = -log_p.gather(1, y.unsqueeze(1)).squeeze(1)
    loss_rows = (1 - label_smoothing) * nll - label_smoothing * log_p.mean(dim=-1)
    return (loss_rows.sum() / max(int(keep.sum()), 1)).to(logits.dtype)
