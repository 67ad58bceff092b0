# kata: ppo-loss
# why: only the clipped policy term, no max with the unclipped one
# mistake: policy_clamp_only
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    A = advantages
    ratio = torch.exp(new_log_probs - old_log_probs)
    policy_loss = (-A * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)).mean()
    if value_clip is None:
        value_loss = 0.5 * ((values - returns) ** 2).mean()
    else:
        v_clipped = old_values + torch.clamp(values - old_values, -value_clip, value_clip)
        value_loss = 0.5 * torch.max((values - returns) ** 2, (v_clipped - returns) ** 2).mean()
    total = policy_loss + vf_coef * value_loss
    if entropy is not None:
        total = total - ent_coef * entropy.mean()
    return total, policy_loss, value_loss
