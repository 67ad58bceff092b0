# kata: ppo-loss
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    ratio = torch.exp(new_log_probs - old_log_probs)
    clipped_ratio = ratio.clamp(1.0 - clip_eps, 1.0 + clip_eps)
    surrogate = torch.max(-advantages * ratio, -advantages * clipped_ratio)
    policy_loss = surrogate.mean()

    sq_err = (values - returns).pow(2)
    if value_clip is None:
        value_loss = 0.5 * sq_err.mean()
    else:
        # keep the new value prediction within a band around the old one
        values_clipped = old_values + (values - old_values).clamp(-clip_eps, clip_eps)
        sq_err_clipped = (values_clipped - returns).pow(2)
        value_loss = 0.5 * torch.maximum(sq_err, sq_err_clipped).mean()

    total = policy_loss + vf_coef * value_loss
    if entropy is not None:
        total = total - ent_coef * entropy.mean()
    return total, policy_loss, value_loss
