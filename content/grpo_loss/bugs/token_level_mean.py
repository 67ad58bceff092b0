# kata: grpo-loss
import torch


def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs,
                   clip_epsilon=0.2, kl_beta=0.04, mask=None):
    if new_log_probs.dim() == 2:
        advantages = advantages[:, None]  # [G, 1]

    ratio = torch.exp(new_log_probs - old_log_probs)
    surrogate = torch.minimum(ratio * advantages,
                              torch.clamp(ratio, 1 - clip_epsilon, 1 + clip_epsilon) * advantages)

    diff = ref_log_probs - new_log_probs
    kl = torch.exp(diff) - diff - 1

    loss = -(surrogate - kl_beta * kl)
    if mask is None:
        mask = torch.ones_like(loss)
    mask = mask.to(loss.dtype)
    # average over the valid (non-padding) tokens
    return (loss * mask).sum() / mask.sum()
