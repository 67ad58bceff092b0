# kata: grpo-loss
# why: adds the KL as a bonus: loss = -(surrogate + kl_beta * kl)
# mistake: kl_sign
import torch


def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs,
                   clip_epsilon=0.2, kl_beta=0.04, mask=None):
    A = advantages if new_log_probs.dim() == 1 else advantages[:, None]
    ratio = torch.exp(new_log_probs - old_log_probs)
    surrogate = torch.min(ratio * A, torch.clamp(ratio, 1 - clip_epsilon, 1 + clip_epsilon) * A)
    kl = -(torch.exp(ref_log_probs - new_log_probs) - (ref_log_probs - new_log_probs) - 1)
    loss = -(surrogate - kl_beta * kl)
    if loss.dim() == 1:
        return loss.mean()
    m = torch.ones_like(loss) if mask is None else mask.to(loss.dtype)
    return ((loss * m).sum(-1) / m.sum(-1)).mean()
