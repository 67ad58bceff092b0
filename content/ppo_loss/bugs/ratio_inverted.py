# kata: ppo-loss
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    # importance ratio between the two policies
    ratio = torch.exp(old_log_probs - new_log_probs)

    # pessimistic bound: with A > 0 the ratio is capped at 1 + eps, with A < 0 at 1 - eps
    bound = torch.where(advantages >= 0, torch.clamp(ratio, max=1 + clip_eps), torch.clamp(ratio, min=1 - clip_eps))
    policy_loss = (-advantages * bound).mean()

    err = values - returns
    if value_clip is not None:
        v_clipped = old_values + torch.clamp(values - old_values, -value_clip, value_clip)
        value_loss = 0.5 * torch.max(err ** 2, (v_clipped - returns) ** 2).mean()
    else:
        value_loss = 0.5 * (err ** 2).mean()

    total = policy_loss + vf_coef * value_loss
    if entropy is not None:
        total = total - ent_coef * entropy.mean()
    return total, policy_loss, value_loss
