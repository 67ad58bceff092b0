# kata: ppo-loss
# why: written with einsum over [T, N] flattened; the entropy bonus totals every sample instead of averaging
# mistake: entropy_summed
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    n = advantages.numel()
    ratio = torch.exp(new_log_probs - old_log_probs).reshape(-1)
    adv = advantages.reshape(-1)
    surrogate = torch.minimum(ratio * adv, torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * adv)
    ones = torch.ones_like(surrogate)
    policy_loss = -torch.einsum("i,i->", surrogate, ones) / n
    err = (values - returns).reshape(-1)
    sq = err * err
    if value_clip is not None:
        v_c = old_values.reshape(-1) + torch.clamp((values - old_values).reshape(-1), -value_clip, value_clip)
        sq = torch.maximum(sq, (v_c - returns.reshape(-1)) ** 2)
    value_loss = 0.5 * torch.einsum("i,i->", sq, ones) / n
    total = policy_loss + vf_coef * value_loss
    if entropy is not None:
        total = total - ent_coef * torch.einsum("i->", entropy.reshape(-1))
    return total, policy_loss, value_loss
