# kata: kl-estimators
import torch


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    estimators = {
        "k1": lambda lr: -lr,
        "k2": lambda lr: 0.5 * lr ** 2,
        "k3": lambda lr: torch.expm1(lr) - lr,
    }
    if kind not in estimators:
        raise ValueError(f"kind must be k1, k2 or k3, not {kind!r}")
    log_ratio = ref_log_probs.double() - log_probs.double()
    kl = estimators[kind](log_ratio)
    if mask is not None:
        kl = kl.masked_fill(~mask.bool(), 0.0)
        mean = kl.sum() / mask.bool().sum()
    else:
        mean = kl.mean()
    return kl.to(log_probs.dtype), mean.to(log_probs.dtype)
