"""The GRPO objective as a loss to minimise.

Shao et al., "DeepSeekMath" (2024), eq. 3: per token,
min(ratio * A, clip(ratio, 1 - eps, 1 + eps) * A) - beta * D_KL, with ratio = pi_new / pi_old and the
unbiased k3 estimator of eq. 4: D_KL = pi_ref / pi_new - log(pi_ref / pi_new) - 1 (Schulman, "Approximating
KL Divergence", 2020). Each completion is averaged over its own tokens, then the G completions are averaged.
"""
import torch


def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs,
                   clip_epsilon=0.2, kl_beta=0.04, mask=None):
    """Log-probs: [G] or [G, T]; advantages: [G]; mask: [G, T] bool or 0/1 (None = all valid). Returns a scalar."""
    G = new_log_probs.shape[0]
    assert advantages.shape == (G,), f"advantages should be [{G}], got {tuple(advantages.shape)}"
    A = advantages if new_log_probs.dim() == 1 else advantages[:, None]  # (G, 1): one advantage per completion
    ratio = torch.exp(new_log_probs - old_log_probs)
    surrogate = torch.min(ratio * A, torch.clamp(ratio, 1 - clip_epsilon, 1 + clip_epsilon) * A)
    log_r = ref_log_probs - new_log_probs
    kl = torch.exp(log_r) - log_r - 1  # k3: >= 0, unbiased for KL(pi_new || pi_ref)
    loss = -(surrogate - kl_beta * kl)  # (G,) or (G, T)
    if loss.dim() == 1:
        return loss.mean()
    m = torch.ones_like(loss) if mask is None else mask.to(loss.dtype)  # (G, T)
    per_completion = (loss * m).sum(dim=-1) / m.sum(dim=-1)  # (G,) mean over each completion's own tokens
    return per_completion.mean()
