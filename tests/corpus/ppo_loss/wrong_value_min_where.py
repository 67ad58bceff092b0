# kata: ppo-loss
# why: torch.where picks the smaller of the two squared errors: a min where the value loss takes the max
# mistake: value_min_not_max
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    log_ratio = new_log_probs - old_log_probs
    ratio = log_ratio.exp()
    clipped_ratio = torch.where(ratio > 1 + clip_eps, torch.full_like(ratio, 1 + clip_eps),
                                torch.where(ratio < 1 - clip_eps, torch.full_like(ratio, 1 - clip_eps), ratio))
    policy_loss = torch.maximum(-advantages * ratio, -advantages * clipped_ratio).mean()
    err = (values - returns) ** 2
    if value_clip is not None:
        delta = values - old_values
        v_clip = old_values + torch.where(delta.abs() > value_clip, value_clip * delta.sign(), delta)
        err_clip = (v_clip - returns) ** 2
        err = torch.where(err_clip < err, err_clip, err)
    value_loss = 0.5 * err.mean()
    total = policy_loss + vf_coef * value_loss
    if entropy is not None:
        total = total - ent_coef * entropy.mean()
    return total, policy_loss, value_loss
