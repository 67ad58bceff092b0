# kata: cross-entropy
# why: half logits lifted to float32 as they should be, but log(softmax(x)): a probability that underflows gives -inf
# mistake: log_of_softmax
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    x = logits.float() if logits.dtype in (torch.float16, torch.bfloat16) else logits
    log_p = torch.softmax(x, dim=-1).log()
    keep = targets != ignore_index
    y = targets.masked_fill(~keep, 0)
    nll = -log_p.gather(1, y.unsqueeze(1)).squeeze(1)
    per_row = (1 - label_smoothing) * nll - label_smoothing * log_p.mean(dim=-1)
    return ((per_row * keep).sum() / keep.sum().clamp(min=1)).to(logits.dtype)
