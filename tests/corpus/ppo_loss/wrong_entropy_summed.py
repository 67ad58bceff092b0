# kata: ppo-loss
# why: the entropy bonus is the sum over samples, not the mean
# mistake: entropy_summed
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    ratio = torch.exp(new_log_probs - old_log_probs)
    pg = torch.max(-advantages * ratio, -advantages * ratio.clamp(1 - clip_eps, 1 + clip_eps)).mean()
    vl = (values - returns) ** 2
    if value_clip is not None:
        vc = old_values + (values - old_values).clamp(-value_clip, value_clip)
        vl = torch.max(vl, (vc - returns) ** 2)
    vl = 0.5 * vl.mean()
    total = pg + vf_coef * vl
    if entropy is not None:
        total = total - ent_coef * entropy.sum()
    return total, pg, vl
