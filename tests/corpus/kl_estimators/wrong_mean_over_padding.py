# kata: kl-estimators
# why: padding zeroed, then kl.mean(): the zeros of the padding are averaged in
# mistake: mean_over_padding
import torch


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    log_r = ref_log_probs - log_probs
    if kind == "k1":
        kl = -log_r
    elif kind == "k2":
        kl = 0.5 * log_r.pow(2)
    elif kind == "k3":
        kl = torch.exp(log_r) - 1 - log_r
    else:
        raise ValueError(f"unknown kind {kind}")
    if mask is not None:
        kl = kl * mask.to(kl.dtype)
    return kl, kl.mean()
