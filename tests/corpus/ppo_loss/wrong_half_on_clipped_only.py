# kata: ppo-loss
# why: element by element, the clipped branch halved and the unclipped one not (the 0.5 sits on one side of the max)
# mistake: half_on_clipped_only
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    r = torch.exp(new_log_probs - old_log_probs).flatten()
    a = advantages.flatten()
    v, v_old, ret = values.flatten(), old_values.flatten(), returns.flatten()
    n = r.numel()
    pol_terms, val_terms = [], []
    for i in range(n):
        surr1 = r[i] * a[i]
        surr2 = torch.clamp(r[i], 1 - clip_eps, 1 + clip_eps) * a[i]
        pol_terms.append(-torch.min(surr1, surr2))
        if value_clip is None:
            val_terms.append(0.5 * (v[i] - ret[i]) ** 2)
        else:
            vc = v_old[i] + torch.clamp(v[i] - v_old[i], -value_clip, value_clip)
            val_terms.append(torch.max((v[i] - ret[i]) ** 2, 0.5 * (vc - ret[i]) ** 2))
    policy_loss = torch.stack(pol_terms).mean()
    value_loss = torch.stack(val_terms).mean()
    total = policy_loss + vf_coef * value_loss
    if entropy is not None:
        total = total - ent_coef * entropy.mean()
    return total, policy_loss, value_loss
