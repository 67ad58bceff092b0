"""The DAPO policy loss: clip-higher, token-level.

Yu et al., "DAPO: An Open-Source LLM Reinforcement Learning System at Scale" (2025), eq. 8-10:
    J = E[ 1 / sum_i |o_i| * sum_i sum_t min( r_it * A_it, clip(r_it, 1 - eps_low, 1 + eps_high) * A_it ) ]
with r_it = pi(o_it) / pi_old(o_it). Decoupled bounds ("clip-higher", eps_high > eps_low) leave room for
low-probability tokens to grow; the 1 / sum_i |o_i| normaliser weighs every token of the batch the same
("token-level policy gradient loss"). Optional dual clip (Ye et al. 2020, verl's clip_ratio_c): for
A < 0 the loss is capped at -A * c, so a huge ratio on a bad token cannot blow the step up.
As verl's compute_policy_loss_vanilla with loss_agg_mode="token-mean"; no KL, no entropy term.
"""
import torch


def dapo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=0.2, clip_ratio_high=0.28,
              clip_ratio_c=None):
    """Log-probs and mask [B, T]; advantages [B] (one per response) or [B, T]. Returns a 0-dim tensor."""
    B, T = log_probs.shape
    assert advantages.shape in ((B,), (B, T)), f"advantages should be [{B}] or [{B}, {T}], got {tuple(advantages.shape)}"
    A = advantages[:, None] if advantages.dim() == 1 else advantages  # (B, 1) or (B, T)
    ratio = torch.exp(log_probs - old_log_probs)  # (B, T)
    pg_unclipped = -A * ratio
    pg_clipped = -A * torch.clamp(ratio, 1 - clip_ratio_low, 1 + clip_ratio_high)
    pg = torch.maximum(pg_unclipped, pg_clipped)  # the loss of the pessimistic (min) objective
    if clip_ratio_c is not None:
        assert clip_ratio_c > 1, f"clip_ratio_c should be > 1, got {clip_ratio_c}"
        pg = torch.where(A < 0, torch.minimum(pg, -A * clip_ratio_c), pg)  # dual clip: only for A < 0
    m = response_mask.to(pg.dtype)  # (B, T)
    return (pg * m).sum() / m.sum()  # token-level: every valid token of the batch weighs the same
