"""The GSPO loss: one importance ratio per response, clipped per response.

Zheng et al., "Group Sequence Policy Optimization" (2025), eq. 5-7:
    s_i = (pi(y_i|x) / pi_old(y_i|x)) ^ (1 / |y_i|) = exp( 1/|y_i| * sum_t log(pi(y_it) / pi_old(y_it)) )
    J = E[ 1/G * sum_i min( s_i * A_i, clip(s_i, 1 - eps_low, 1 + eps_high) * A_i ) ]
The length normalisation (a geometric mean of the token ratios over the valid tokens) keeps s_i in a
range one clip window can cover whatever the response length; the paper's window is tiny (3e-4 / 4e-4)
because a sequence ratio moves far less than a token ratio. One term per response, averaged over B.
"""
import torch


def gspo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=3e-4, clip_ratio_high=4e-4):
    """Log-probs and mask [B, T] (every response has a valid token); advantages [B]. Returns a 0-dim tensor."""
    B, T = log_probs.shape
    assert advantages.shape == (B,), f"advantages should be [{B}], got {tuple(advantages.shape)}"
    m = response_mask.to(log_probs.dtype)  # (B, T)
    lengths = m.sum(dim=-1)  # (B,) |y_i|
    assert bool((lengths > 0).all()), "every response needs at least one valid token"
    log_ratio = (log_probs - old_log_probs) * m  # (B, T) padding contributes nothing
    s = torch.exp(log_ratio.sum(dim=-1) / lengths)  # (B,) the sequence-level ratio
    objective = torch.min(s * advantages, torch.clamp(s, 1 - clip_ratio_low, 1 + clip_ratio_high) * advantages)
    return -objective.mean()
