# kata: cross-entropy
# why: the nll is averaged over the kept rows, the smoothing term over every row (ignored ones included)
# mistake: smoothing_mean_over_all_rows
import torch
import torch.nn.functional as F


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    x = logits.float() if logits.dtype in (torch.float16, torch.bfloat16) else logits
    log_p = F.log_softmax(x, dim=-1)
    keep = targets != ignore_index
    nll = -log_p[keep].gather(1, targets[keep].unsqueeze(1)).squeeze(1)
    nll = nll.sum() / keep.sum().clamp(min=1)
    smooth = -log_p.mean(dim=-1).mean()
    return ((1 - label_smoothing) * nll + label_smoothing * smooth).to(logits.dtype)
