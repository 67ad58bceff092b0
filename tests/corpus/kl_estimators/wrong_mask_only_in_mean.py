# kata: kl-estimators
# why: the mask is used for the mean only; kl keeps its (huge) values at the padding
# mistake: padding_not_zeroed
import torch


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    if kind not in ("k1", "k2", "k3"):
        raise ValueError(kind)
    log_r = ref_log_probs - log_probs
    kl = -log_r if kind == "k1" else (0.5 * log_r ** 2 if kind == "k2" else log_r.exp() - log_r - 1)
    if mask is None:
        return kl, kl.mean()
    valid = mask.bool()
    return kl, kl[valid].mean()
