# kata: cross-entropy
# why: gather with the raw targets, then the mask: gather cannot take the -100 of an ignored row
# mistake: none
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    x = logits.float() if logits.dtype in (torch.float16, torch.bfloat16) else logits
    lse = torch.logsumexp(x, dim=-1)
    target_logit = x.gather(1, targets.view(-1, 1)).view(-1)
    nll = lse - target_logit
    smooth = lse - x.mean(dim=-1)
    mask = targets != ignore_index
    loss = ((1 - label_smoothing) * nll + label_smoothing * smooth)[mask]
    return (loss.sum() / max(mask.sum().item(), 1)).to(logits.dtype)
