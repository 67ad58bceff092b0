# kata: ppo-loss
# why: the value loss takes the min of the clipped and unclipped errors (the policy's pessimism copied the wrong way)
# mistake: value_min_not_max
import torch
import torch.nn.functional as F


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    ratio = torch.exp(new_log_probs - old_log_probs)
    surr = torch.min(ratio * advantages, ratio.clamp(1 - clip_eps, 1 + clip_eps) * advantages)
    policy_loss = -surr.mean()
    if value_clip is None:
        value_loss = 0.5 * F.mse_loss(values, returns)
    else:
        clipped = old_values + (values - old_values).clamp(-value_clip, value_clip)
        value_loss = 0.5 * torch.min((values - returns).pow(2), (clipped - returns).pow(2)).mean()
    total = policy_loss + vf_coef * value_loss
    if entropy is not None:
        total -= ent_coef * entropy.mean()
    return total, policy_loss, value_loss
