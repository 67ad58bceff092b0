# kata: ppo-loss
# why: a Python loop over every element on 0-dim float64 tensors (so the graph is kept), the negated min written out
import math

import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    new, old = new_log_probs.double().flatten(), old_log_probs.double().flatten()
    A, V = advantages.double().flatten(), values.double().flatten()
    V_old, R = old_values.double().flatten(), returns.double().flatten()
    n = new.numel()
    policy_terms, value_terms = [], []
    for i in range(n):
        ratio = torch.exp(new[i] - old[i])
        surrogate = torch.min(ratio * A[i], torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * A[i])
        policy_terms.append(-surrogate)
        err = (V[i] - R[i]) ** 2
        if value_clip is not None:
            clipped = V_old[i] + torch.clamp(V[i] - V_old[i], -value_clip, value_clip)
            err = torch.max(err, (clipped - R[i]) ** 2)
        value_terms.append(err)
    policy_loss = torch.stack(policy_terms).sum() / n
    value_loss = 0.5 * torch.stack(value_terms).sum() / n
    total = policy_loss + vf_coef * value_loss
    if entropy is not None:
        total = total - ent_coef * entropy.double().mean()
    dtype = new_log_probs.dtype
    return total.to(dtype), policy_loss.to(dtype), value_loss.to(dtype)
