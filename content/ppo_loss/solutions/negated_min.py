# kata: ppo-loss
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    ratio = torch.exp(new_log_probs - old_log_probs)
    l_clip = torch.minimum(ratio * advantages, torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * advantages).mean()
    if value_clip is None:
        l_vf = 0.5 * torch.mean(torch.square(values - returns))
    else:
        v_clipped = old_values + (values - old_values).clamp(-value_clip, value_clip)
        l_vf = 0.5 * torch.mean(torch.maximum(torch.square(values - returns), torch.square(v_clipped - returns)))
    objective = l_clip - vf_coef * l_vf
    if entropy is not None:
        objective = objective + ent_coef * entropy.mean()
    return -objective, -l_clip, l_vf
