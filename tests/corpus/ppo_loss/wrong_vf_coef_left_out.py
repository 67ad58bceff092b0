# kata: ppo-loss
# why: the total adds the value loss unweighted: vf_coef is accepted but never used
# mistake: vf_coef_left_out
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    ratio = torch.exp(new_log_probs - old_log_probs)
    unclipped_obj = ratio * advantages
    clipped_obj = torch.clamp(ratio, 1.0 - clip_eps, 1.0 + clip_eps) * advantages
    policy_loss = -torch.min(unclipped_obj, clipped_obj).mean()
    if value_clip is None:
        value_loss = 0.5 * ((returns - values) ** 2).mean()
    else:
        values_clipped = old_values + torch.clamp(values - old_values, -value_clip, value_clip)
        value_loss = 0.5 * torch.max((returns - values) ** 2, (returns - values_clipped) ** 2).mean()
    entropy_term = entropy.mean() if entropy is not None else 0.0
    total = policy_loss + value_loss - ent_coef * entropy_term
    return total, policy_loss, value_loss
