# kata: kl-estimators
import torch


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    d = ref_log_probs - log_probs
    table = {
        "k1": lambda: -d,
        "k2": lambda: 0.5 * d.square(),
        "k3": lambda: d.exp() - d - 1,
    }
    if kind not in table:
        raise ValueError(kind)
    kl = table[kind]()
    if mask is None:
        return kl, kl.mean()
    weights = mask.to(kl.dtype)
    kl_mean = (kl * weights).sum() / weights.sum()
    return kl, kl_mean
