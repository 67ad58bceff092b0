# kata: ppo-loss
# why: per-sample weights from torch.ones(shape) without device=: on a GPU they would sit on the CPU
# mistake: none
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    w = torch.ones(new_log_probs.shape, dtype=new_log_probs.dtype)
    ratio = torch.exp(new_log_probs - old_log_probs)
    policy_loss = (w * torch.max(-advantages * ratio, -advantages * ratio.clamp(1 - clip_eps, 1 + clip_eps))).mean()
    sq = (values - returns) ** 2
    if value_clip is not None:
        v_clip = old_values + (values - old_values).clamp(-value_clip, value_clip)
        sq = torch.max(sq, (v_clip - returns) ** 2)
    value_loss = 0.5 * sq.mean()
    total = policy_loss + vf_coef * value_loss
    if entropy is not None:
        total = total - ent_coef * entropy.mean()
    return total, policy_loss, value_loss
