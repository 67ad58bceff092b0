# kata: ppo-loss
# why: a loop that clips each new value into [-value_clip, value_clip] before adding the old value back
# mistake: value_clip_on_value
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    flat = [t.reshape(-1) for t in (new_log_probs, old_log_probs, advantages, values, old_values, returns)]
    new, old, adv, v, v_old, ret = flat
    pol, val = 0.0, 0.0
    for i in range(adv.numel()):
        ratio = torch.exp(new[i] - old[i])
        pol = pol + torch.max(-adv[i] * ratio, -adv[i] * ratio.clamp(1 - clip_eps, 1 + clip_eps))
        sq = (v[i] - ret[i]) ** 2
        if value_clip is not None:
            v_c = v_old[i] + v[i].clamp(-value_clip, value_clip)
            sq = torch.max(sq, (v_c - ret[i]) ** 2)
        val = val + 0.5 * sq
    policy_loss = pol / adv.numel()
    value_loss = val / adv.numel()
    total = policy_loss + vf_coef * value_loss
    if entropy is not None:
        total = total - ent_coef * entropy.mean()
    return total, policy_loss, value_loss
