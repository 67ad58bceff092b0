# kata: kl-estimators
# why: k1 as the log of the reference over the policy, the sign of log r itself
# mistake: k1_sign
import torch


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    log_r = ref_log_probs - log_probs
    if kind == "k1":
        kl = log_r
    elif kind == "k2":
        kl = log_r ** 2 / 2
    elif kind == "k3":
        kl = torch.exp(log_r) - log_r - 1
    else:
        raise ValueError(kind)
    if mask is None:
        return kl, kl.mean()
    m = mask.to(kl.dtype)
    return kl * m, (kl * m).sum() / m.sum()
