# kata: ppo-loss
# why: clips the value prediction around the returns (a no-op inside the max) instead of the old values
# mistake: value_clip_around_returns
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    A = advantages
    ratio = torch.exp(new_log_probs - old_log_probs)
    policy_loss = torch.max(-A * ratio, -A * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)).mean()
    if value_clip is None:
        value_loss = 0.5 * ((values - returns) ** 2).mean()
    else:
        v_clipped = returns + torch.clamp(values - returns, -value_clip, value_clip)
        value_loss = 0.5 * torch.max((values - returns) ** 2, (v_clipped - returns) ** 2).mean()
    total = policy_loss + vf_coef * value_loss
    if entropy is not None:
        total = total - ent_coef * entropy.mean()
    return total, policy_loss, value_loss
