# kata: kl-estimators
# why: verl's kl_penalty names accepted as aliases (kl, mse, low_var_kl); the contract takes k1 / k2 / k3 only
# mistake: verl_names_accepted
import torch

ALIASES = {"kl": "k1", "mse": "k2", "low_var_kl": "k3"}


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    kind = ALIASES.get(kind, kind)
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
    return kl, kl.sum() / m.sum()
