# kata: kl-estimators
import torch


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    log_ratio = log_probs - ref_log_probs

    if kind == "k1":
        kl = log_ratio
    elif kind == "k2":
        kl = log_ratio ** 2 / 2.0
    elif kind == "k3":
        # low-variance estimator, always non-negative
        kl = log_ratio.exp() - 1 - log_ratio
    else:
        raise ValueError(f"Unsupported kl estimator: {kind}")

    if mask is None:
        return kl, kl.mean()
    kl = kl.masked_fill(~mask.bool(), 0.0)
    return kl, kl.sum() / mask.bool().sum()
