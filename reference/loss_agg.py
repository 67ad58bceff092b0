"""verl's `agg_loss`: how a matrix of per-token losses becomes the one number a step minimises.

verl (Sheng et al., "HybridFlow", 2024), `verl/trainer/ppo/core_algos.py::agg_loss`, for one micro-batch:
    token-mean               sum_{i,t} m x / sum_{i,t} m          every valid token weighs the same (DAPO, Yu et
                                                                 al. 2025, eq. 8's 1 / sum_i |o_i|)
    seq-mean-token-sum       mean_i sum_t m x                     a sum per response, a mean over responses
    seq-mean-token-mean      mean_i (sum_t m x / sum_t m)         GRPO (Shao et al. 2024, eq. 3): a short
                                                                 response counts as much as a long one
    seq-mean-token-sum-norm  sum_{i,t} m x / loss_scale_factor    Dr. GRPO (Liu et al. 2025) as verl has it:
                                                                 a constant divisor (T by default), no 1/B
Sequences with no valid token are left out of the sequence means; a batch with no valid token gives 0,
still in the graph, so a micro-batch of padding adds nothing and poisons nothing.
"""
import torch

MODES = ("token-mean", "seq-mean-token-sum", "seq-mean-token-mean", "seq-mean-token-sum-norm")


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    """loss_mat [B, T]; loss_mask [B, T] bool or 0/1 float, True = a real response token. Returns a 0-dim tensor."""
    if loss_agg_mode not in MODES:
        raise ValueError(f"loss_agg_mode must be one of {MODES}, got {loss_agg_mode!r}")
    assert loss_mat.dim() == 2 and loss_mask.shape == loss_mat.shape, (
        f"loss_mat and loss_mask should both be [B, T], got {tuple(loss_mat.shape)} and {tuple(loss_mask.shape)}")
    m = loss_mask.to(loss_mat.dtype)  # (B, T)
    masked = loss_mat * m  # (B, T): padding may hold any finite value, and 0 * garbage is exactly 0
    if loss_agg_mode == "token-mean":
        return masked.sum() / m.sum().clamp(min=1)
    if loss_agg_mode == "seq-mean-token-sum-norm":
        divisor = loss_mat.shape[-1] if loss_scale_factor is None else loss_scale_factor
        return masked.sum() / divisor
    per_seq = masked.sum(dim=-1)  # (B,) each response's sum over its own tokens
    lengths = m.sum(dim=-1)  # (B,)
    if loss_agg_mode == "seq-mean-token-mean":
        per_seq = per_seq / lengths.clamp(min=1)  # (B,) each response's mean over its own tokens
    present = (lengths > 0).to(loss_mat.dtype)  # (B,) responses with at least one valid token
    return (per_seq * present).sum() / present.sum().clamp(min=1)
