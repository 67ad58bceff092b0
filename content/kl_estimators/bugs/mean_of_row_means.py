# kata: kl-estimators
import torch


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    if kind not in ("k1", "k2", "k3"):
        raise ValueError(f"kind should be k1, k2 or k3, got {kind}")
    log_r = ref_log_probs - log_probs
    if kind == "k1":
        kl = -log_r
    elif kind == "k2":
        kl = 0.5 * log_r * log_r
    else:
        kl = torch.exp(log_r) - log_r - 1.0

    if mask is None:
        mask = torch.ones_like(kl)
    m = mask.to(kl.dtype)
    kl = kl * m
    if kl.dim() == 1:
        return kl, kl.sum() / m.sum()
    seq_kl = kl.sum(dim=-1) / m.sum(dim=-1).clamp(min=1.0)
    return kl, seq_kl.mean()
