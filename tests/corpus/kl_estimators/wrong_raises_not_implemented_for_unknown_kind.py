# kata: kl-estimators
# why: verl's dispatch: an unknown kind raises NotImplementedError(f"unknown kind {kind}"), where the contract asks for ValueError; the learner's own raise on the first case, not the stub's: every case is judged and only the unknown kinds fail
# mistake: none
import torch


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    log_ratio = ref_log_probs - log_probs
    if kind == "k1":
        kl = -log_ratio
    elif kind == "k2":
        kl = 0.5 * log_ratio.square()
    elif kind == "k3":
        kl = log_ratio.exp() - 1 - log_ratio
    else:
        raise NotImplementedError(f"unknown kind {kind}")
    if mask is None:
        return kl, kl.mean()
    mask = mask.to(kl.dtype)
    kl = torch.where(mask.bool(), kl, torch.zeros_like(kl))
    return kl, (kl * mask).sum() / mask.sum()
