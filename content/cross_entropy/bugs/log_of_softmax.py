# kata: cross-entropy
import torch
import torch.nn.functional as F


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    x = logits.double() if logits.dtype == torch.float64 else logits.float()
    N, K = x.shape

    log_probs = F.softmax(x, dim=-1).log()

    mask = (targets != ignore_index).to(x.dtype)
    idx = targets.clone()
    idx[targets == ignore_index] = 0  # any valid class; these rows are masked out below
    nll = -log_probs[torch.arange(N, device=x.device), idx]
    smooth = -log_probs.mean(dim=-1)

    per_row = (1 - label_smoothing) * nll + label_smoothing * smooth
    return ((per_row * mask).sum() / mask.sum().clamp(min=1)).to(logits.dtype)
