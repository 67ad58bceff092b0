# kata: cross-entropy
# why: fairseq's label_smoothed_nll_loss with the pad mask applied to nll_loss only: ignored rows still add smoothing
# mistake: smoothing_on_ignored_rows
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    lprobs = torch.log_softmax(logits.float(), dim=-1).to(torch.float64 if logits.dtype == torch.float64 else torch.float32)
    target = targets.unsqueeze(-1)
    pad_mask = target.eq(ignore_index)
    nll_loss = -lprobs.gather(dim=-1, index=target.masked_fill(pad_mask, 0))
    smooth_loss = -lprobs.sum(dim=-1, keepdim=True)
    nll_loss.masked_fill_(pad_mask, 0.0)
    nll_loss, smooth_loss = nll_loss.sum(), smooth_loss.sum()
    eps_i = label_smoothing / lprobs.size(-1)
    loss = (1.0 - label_smoothing) * nll_loss + eps_i * smooth_loss
    n = (~pad_mask).sum().clamp(min=1)
    return (loss / n).to(logits.dtype)
