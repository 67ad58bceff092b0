# kata: grpo-loss
# why: with mask=None the default mask is torch.ones(G, T), made on the CPU: on a GPU it meets the per-token loss on another device
# mistake: none
import torch


def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs, clip_epsilon=0.2, kl_beta=0.04, mask=None):
    A = advantages if new_log_probs.dim() == 1 else advantages.unsqueeze(-1)
    ratio = torch.exp(new_log_probs - old_log_probs)
    surrogate = torch.min(ratio * A, torch.clamp(ratio, 1 - clip_epsilon, 1 + clip_epsilon) * A)
    kl = torch.exp(ref_log_probs - new_log_probs) - (ref_log_probs - new_log_probs) - 1
    loss = -(surrogate - kl_beta * kl)
    if loss.dim() == 1:
        return loss.mean()
    if mask is None:
        mask = torch.ones(loss.shape, dtype=loss.dtype)
    mask = mask.to(loss.dtype)
    return ((loss * mask).sum(-1) / mask.sum(-1)).mean()
