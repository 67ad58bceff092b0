# kata: grpo-loss
# why: multiplies [G, T] ratios by [G] advantages directly: errors when T != G, pairs A with tokens when T == G
# mistake: advantages_along_tokens
import torch


def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs,
                   clip_epsilon=0.2, kl_beta=0.04, mask=None):
    ratio = torch.exp(new_log_probs - old_log_probs)
    surr1 = ratio * advantages
    surr2 = torch.clamp(ratio, 1 - clip_epsilon, 1 + clip_epsilon) * advantages
    surrogate = torch.min(surr1, surr2)
    kl = torch.exp(ref_log_probs - new_log_probs) - (ref_log_probs - new_log_probs) - 1
    loss = -(surrogate - kl_beta * kl)
    if loss.dim() == 1:
        return loss.mean()
    m = torch.ones_like(loss) if mask is None else mask.to(loss.dtype)
    return ((loss * m).sum(-1) / m.sum(-1)).mean()
