# kata: kl-estimators
# why: k3 built from logr = log_probs - ref_log_probs (the ratio pi / pi_ref), exp(logr) - 1 - logr; k1 and k2 right
# mistake: k3_ratio_inverted
import torch


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    if kind == "k1":
        kl = log_probs - ref_log_probs
    elif kind == "k2":
        kl = (log_probs - ref_log_probs) ** 2 / 2
    elif kind == "k3":
        logr = log_probs - ref_log_probs
        kl = logr.exp() - 1 - logr
    else:
        raise ValueError(kind)
    if mask is None:
        return kl, kl.mean()
    m = mask.to(torch.bool)
    kl = kl.masked_fill(~m, 0.0)
    return kl, kl.sum() / m.sum()
