# kata: kl-estimators
# why: each sequence averaged over its own tokens, then the sequences averaged (GRPO's habit, not this contract)
# mistake: mean_of_row_means
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
    m = torch.ones_like(kl) if mask is None else mask.to(kl.dtype)
    kl = kl * m
    if kl.dim() == 1:
        return kl, kl.sum() / m.sum()
    per_seq = kl.sum(-1) / m.sum(-1).clamp(min=1)
    return kl, per_seq.mean()
