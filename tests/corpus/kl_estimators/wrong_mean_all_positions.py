# kata: kl-estimators
# why: zeroes the padding in kl, then kl_mean = kl.mean() over every position, padding included
# mistake: mean_over_padding
import torch


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    if kind not in ("k1", "k2", "k3"):
        raise ValueError(f"bad kind {kind}")
    d = ref_log_probs - log_probs
    kl = {"k1": lambda: -d, "k2": lambda: 0.5 * d * d, "k3": lambda: torch.expm1(d) - d}[kind]()
    if mask is not None:
        kl = kl * mask.to(kl.dtype)
    return kl, kl.mean()
