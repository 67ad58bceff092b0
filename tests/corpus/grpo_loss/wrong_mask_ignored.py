# kata: grpo-loss
# why: never reads the mask: padding tokens count in every completion's mean
# mistake: mask_ignored
import torch


def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs,
                   clip_epsilon=0.2, kl_beta=0.04, mask=None):
    A = advantages if new_log_probs.dim() == 1 else advantages[:, None]
    ratio = torch.exp(new_log_probs - old_log_probs)
    surrogate = torch.min(ratio * A, torch.clamp(ratio, 1 - clip_epsilon, 1 + clip_epsilon) * A)
    kl = torch.exp(ref_log_probs - new_log_probs) - (ref_log_probs - new_log_probs) - 1
    loss = -(surrogate - kl_beta * kl)
    return loss.mean(dim=-1).mean() if loss.dim() == 2 else loss.mean()
