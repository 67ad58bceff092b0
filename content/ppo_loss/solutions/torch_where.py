# kata: ppo-loss
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    ratio = torch.exp(new_log_probs - old_log_probs)
    A = advantages
    # For A >= 0 the min is taken at the upper clip; for A < 0 at the lower one.
    capped = torch.where(A >= 0, torch.clamp(ratio, max=1 + clip_eps), torch.clamp(ratio, min=1 - clip_eps))
    policy_loss = (-A * capped).mean()
    sq = (values - returns).pow(2)
    if value_clip is not None:
        delta = (values - old_values).clamp(-value_clip, value_clip)
        sq = torch.maximum(sq, (old_values + delta - returns).pow(2))
    value_loss = sq.mean() / 2
    total = policy_loss + vf_coef * value_loss
    if entropy is not None:
        total = total - ent_coef * entropy.mean()
    return total, policy_loss, value_loss
