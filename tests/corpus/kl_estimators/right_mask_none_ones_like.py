# kata: kl-estimators
# why: mask=None becomes torch.ones_like(log_probs, dtype=torch.bool), on log_probs' device: one masked path for both
import torch


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    if kind not in ("k1", "k2", "k3"):
        raise ValueError(f"unknown kind {kind!r}")
    if mask is None:
        mask = torch.ones_like(log_probs, dtype=torch.bool)  # wherever log_probs lives
    log_r = ref_log_probs - log_probs
    if kind == "k1":
        kl = -log_r
    elif kind == "k2":
        kl = 0.5 * log_r ** 2
    else:
        kl = torch.exp(log_r) - 1 - log_r
    valid = mask.bool()
    kl = torch.where(valid, kl, torch.zeros_like(kl))
    return kl, kl.sum() / valid.sum().to(kl.dtype)
