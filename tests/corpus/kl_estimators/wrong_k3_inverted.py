# kata: kl-estimators
# why: k3 written with the policy over the reference: exp(logp - ref) - (logp - ref) - 1
# mistake: k3_ratio_inverted
import torch


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    log_ratio = log_probs - ref_log_probs
    if kind == "k1":
        kl = log_ratio
    elif kind == "k2":
        kl = 0.5 * log_ratio ** 2
    elif kind == "k3":
        kl = torch.exp(log_ratio) - log_ratio - 1
    else:
        raise ValueError(kind)
    if mask is None:
        return kl, kl.mean()
    kl = torch.where(mask.bool(), kl, torch.zeros_like(kl))
    return kl, kl.sum() / mask.sum()
