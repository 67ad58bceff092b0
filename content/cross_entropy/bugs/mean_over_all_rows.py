# kata: cross-entropy
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    work = torch.float64 if logits.dtype == torch.float64 else torch.float32
    x = logits.to(work)

    # stable log-softmax: take the row max out before exp
    m = x.max(dim=1, keepdim=True).values
    lse = m + torch.log(torch.exp(x - m).sum(dim=1, keepdim=True))
    log_p = x - lse

    valid = targets != ignore_index
    tgt = torch.where(valid, targets, torch.zeros_like(targets))
    nll = -log_p[torch.arange(x.shape[0], device=x.device), tgt]
    uniform = -log_p.mean(dim=1)
    loss = (1 - label_smoothing) * nll + label_smoothing * uniform

    loss = torch.where(valid, loss, torch.zeros_like(loss))
    return loss.mean().to(logits.dtype)
