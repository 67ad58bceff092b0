# kata: kl-estimators
import torch


def masked_mean(values, mask):
    return (values * mask).sum() / mask.sum()


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    if kind == "k1":
        kl = log_probs - ref_log_probs
    elif kind == "k2":
        kl = 0.5 * (log_probs - ref_log_probs).square()
    elif kind == "k3":
        kl = ref_log_probs - log_probs
        kl = torch.clamp(kl, min=-20, max=20)
        ratio = torch.exp(kl)
        kld = (ratio - kl - 1).contiguous()
        kl = torch.clamp(kld, min=-10, max=10)
    else:
        raise ValueError(f"unknown kl estimator {kind}")
    if mask is None:
        return kl, kl.mean()
    m = mask.to(kl.dtype)
    kl = kl * m
    return kl, masked_mean(kl, m)
