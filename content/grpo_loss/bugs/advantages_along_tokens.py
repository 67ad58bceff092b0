# kata: grpo-loss
import torch


def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs,
                   clip_epsilon=0.2, kl_beta=0.04, mask=None):
    ratio = torch.exp(new_log_probs - old_log_probs)
    pg1 = ratio * advantages
    pg2 = torch.clamp(ratio, 1.0 - clip_epsilon, 1.0 + clip_epsilon) * advantages
    pg = torch.min(pg1, pg2)

    log_q = ref_log_probs - new_log_probs
    kl = torch.exp(log_q) - log_q - 1

    loss = kl_beta * kl - pg
    if loss.dim() == 1:
        return loss.mean()
    if mask is None:
        mask = torch.ones_like(loss)
    mask = mask.to(loss.dtype)
    seq_loss = (loss * mask).sum(-1) / mask.sum(-1)
    return seq_loss.mean()
