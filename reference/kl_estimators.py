"""Schulman's estimators of KL(pi || pi_ref) from tokens sampled from pi.

J. Schulman, "Approximating KL Divergence" (2020). With r = pi_ref(x) / pi(x) and x ~ pi:
    k1 = -log r                    unbiased, high variance, negative for half the samples
    k2 = (log r)^2 / 2             biased (low bias near pi = pi_ref), always >= 0
    k3 = (r - 1) - log r           unbiased (E[r - 1] = 0) and always >= 0 (log r <= r - 1)
k3 is DeepSeekMath's (Shao et al. 2024, eq. 4) KL penalty in GRPO. Per token; the batch mean is over valid
tokens only (not a mean of row means, not over padding).
"""
import torch

KINDS = ("k1", "k2", "k3")


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    """log_probs, ref_log_probs: any shape, the same; mask: that shape, bool or 0/1 (None = all valid).
    Returns (kl: log_probs' shape, masked positions exactly 0; kl_mean: 0-dim)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    assert ref_log_probs.shape == log_probs.shape, (
        f"log_probs and ref_log_probs differ in shape: {tuple(log_probs.shape)} vs {tuple(ref_log_probs.shape)}")
    log_r = ref_log_probs - log_probs  # log(pi_ref / pi)
    if kind == "k1":
        kl = -log_r
    elif kind == "k2":
        kl = 0.5 * log_r ** 2
    else:
        kl = torch.exp(log_r) - 1 - log_r
    if mask is None:
        return kl, kl.mean()
    valid = mask.bool()
    # exactly 0 at padding whatever it holds (a garbage log-ratio of 15 nats makes k3 = e^15 there)
    kl = torch.where(valid, kl, torch.zeros_like(kl))
    return kl, kl.sum() / valid.sum().to(kl.dtype)
