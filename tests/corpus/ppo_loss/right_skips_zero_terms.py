# kata: ppo-loss
# why: leaves a term out of total when its coefficient is 0 (a None gradient counts as zeros), sum / numel for means
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    n = new_log_probs.numel()
    ratio = (new_log_probs - old_log_probs).exp()
    surr = torch.min(ratio * advantages, ratio.clamp(1 - clip_eps, 1 + clip_eps) * advantages)
    policy_loss = -surr.sum() / n
    if value_clip is None:
        value_loss = 0.5 * ((values - returns) ** 2).sum() / n
    else:
        v_clip = torch.clamp(values, old_values - value_clip, old_values + value_clip)
        value_loss = 0.5 * torch.max((values - returns) ** 2, (v_clip - returns) ** 2).sum() / n
    total = policy_loss
    if vf_coef != 0:
        total = total + vf_coef * value_loss
    if entropy is not None and ent_coef != 0:
        total = total - ent_coef * entropy.mean()
    return total, policy_loss, value_loss
