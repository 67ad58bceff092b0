# kata: grpo-loss
import torch


def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs,
                   clip_epsilon=0.2, kl_beta=0.04, mask=None):
    p_old, p_new, p_ref = old_log_probs.exp(), new_log_probs.exp(), ref_log_probs.exp()
    A = advantages if p_new.dim() == 1 else advantages[:, None]
    ratio = p_new / p_old
    surrogate = torch.minimum(ratio * A, torch.clamp(ratio, 1 - clip_epsilon, 1 + clip_epsilon) * A)
    q = p_ref / p_new
    kl = q - torch.log(q) - 1
    loss = -(surrogate - kl_beta * kl)
    if loss.dim() == 1:
        return loss.mean()
    m = torch.ones_like(loss) if mask is None else mask.to(loss.dtype)
    return ((loss * m).sum(-1) / m.sum(-1)).mean()
