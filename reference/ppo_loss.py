"""The PPO clipped loss with a clipped value loss and an entropy bonus, as losses to minimise.

Schulman et al., "Proximal Policy Optimization Algorithms" (2017), eq. 7:
L^CLIP = E[min(r·A, clip(r, 1 - eps, 1 + eps)·A)] with r = pi_new / pi_old, and eq. 9:
L = L^CLIP - c1·L^VF + c2·S. Minimised here, as CleanRL's `ppo.py` writes it: the negated min is a
max of the negated terms, and the value loss is 0.5·max((V - R)², (V_clip - R)²) with V_clip kept
within value_clip of the *old* values.
"""
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    """Every tensor [N] or [T, N] (means over all elements). Returns (total, policy_loss, value_loss), 0-dim."""
    shapes = {tuple(t.shape) for t in (new_log_probs, old_log_probs, advantages, values, old_values, returns)}
    assert len(shapes) == 1, f"every input must have one shape, got {sorted(shapes)}"
    ratio = torch.exp(new_log_probs - old_log_probs)
    A = advantages  # used as given: normalise per minibatch before calling
    policy_loss = torch.max(-A * ratio, -A * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)).mean()

    unclipped = (values - returns) ** 2
    if value_clip is None:
        value_loss = 0.5 * unclipped.mean()
    else:
        v_clipped = old_values + torch.clamp(values - old_values, -value_clip, value_clip)
        value_loss = 0.5 * torch.max(unclipped, (v_clipped - returns) ** 2).mean()

    total = policy_loss + vf_coef * value_loss
    if entropy is not None:
        total = total - ent_coef * entropy.mean()  # a bonus: more entropy, lower loss
    return total, policy_loss, value_loss
