# kata: kl-estimators
# why: kl_mean is the masked mean, but the returned kl still holds the estimator's values at padding
# mistake: padding_not_zeroed
import torch


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    lr = ref_log_probs - log_probs
    if kind == "k1":
        kl = -lr
    elif kind == "k2":
        kl = 0.5 * lr.pow(2)
    elif kind == "k3":
        kl = torch.exp(lr) - 1 - lr
    else:
        raise ValueError(kind)
    if mask is None:
        return kl, kl.mean()
    w = mask.to(kl.dtype)
    return kl, torch.where(w > 0, kl, torch.zeros_like(kl)).sum() / w.sum()
