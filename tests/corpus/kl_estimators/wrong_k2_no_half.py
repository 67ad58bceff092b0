# kata: kl-estimators
# why: k2 as the squared log-ratio, without the ½
# mistake: k2_without_half
import torch


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    if kind not in {"k1", "k2", "k3"}:
        raise ValueError(kind)
    log_r = ref_log_probs - log_probs
    kl = {"k1": lambda: -log_r, "k2": lambda: log_r ** 2, "k3": lambda: log_r.exp() - 1 - log_r}[kind]()
    m = torch.ones_like(kl) if mask is None else mask.to(kl.dtype)
    kl = kl * m
    return kl, kl.sum() / m.sum()
