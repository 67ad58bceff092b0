# kata: ppo-loss
# why: the value itself clamped to [-value_clip, value_clip]: the clip bounds the value, not its change
# mistake: value_clamped_absolute
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    ratio = torch.exp(new_log_probs - old_log_probs)
    policy_loss = -torch.min(ratio * advantages, torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * advantages).mean()
    unclipped = (values - returns) ** 2
    if value_clip is None:
        value_loss = 0.5 * unclipped.mean()
    else:
        clipped = (torch.clamp(values, -value_clip, value_clip) - returns) ** 2
        value_loss = 0.5 * torch.max(unclipped, clipped).mean()
    total = policy_loss + vf_coef * value_loss
    if entropy is not None:
        total = total - ent_coef * entropy.mean()
    return total, policy_loss, value_loss
