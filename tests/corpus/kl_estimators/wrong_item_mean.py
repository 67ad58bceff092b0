# kata: kl-estimators
# why: kl_mean rebuilt from a Python float with torch.tensor: the mean has no gradient
# mistake: kl_mean_detached
import torch


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    log_r = ref_log_probs - log_probs
    if kind == "k1":
        kl = -log_r
    elif kind == "k2":
        kl = 0.5 * log_r ** 2
    elif kind == "k3":
        kl = torch.exp(log_r) - log_r - 1
    else:
        raise ValueError(kind)
    if mask is not None:
        kl = torch.where(mask.bool(), kl, torch.zeros_like(kl))
        n = int(mask.bool().sum())
    else:
        n = kl.numel()
    mean = torch.tensor(kl.sum().item() / n, dtype=kl.dtype, device=kl.device)
    return kl, mean
