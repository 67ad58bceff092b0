# kata: cross-entropy
# why: returns a fresh torch.zeros(()) when every row is ignored: loss.backward() has no graph
# (it also computes float64 logits in float32: two mistakes at once, no single variant explains it)
# mistake: none
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    keep = targets != ignore_index
    if not keep.any():
        return torch.zeros((), dtype=logits.dtype, device=logits.device)
    log_p = torch.log_softmax(logits.float(), dim=-1)[keep]
    nll = -log_p.gather(1, targets[keep][:, None]).squeeze(1)
    per_row = (1 - label_smoothing) * nll - label_smoothing * log_p.mean(-1)
    return per_row.mean().to(logits.dtype)
