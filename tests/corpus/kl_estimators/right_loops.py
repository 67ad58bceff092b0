# kata: kl-estimators
# why: a loop over the flattened tokens with math on each, collected with torch.stack; the mean over valid tokens only
import torch


def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
    if kind not in ("k1", "k2", "k3"):
        raise ValueError(kind)
    lp, rp = log_probs.reshape(-1), ref_log_probs.reshape(-1)
    keep = torch.ones_like(lp, dtype=torch.bool) if mask is None else mask.reshape(-1).bool()
    values = []
    total, count = None, 0
    for i in range(lp.numel()):
        if not keep[i]:
            values.append(lp[i] * 0)
            continue
        d = rp[i] - lp[i]
        if kind == "k1":
            v = -d
        elif kind == "k2":
            v = d * d / 2
        else:
            v = torch.exp(d) - d - 1
        values.append(v)
        total = v if total is None else total + v
        count += 1
    kl = torch.stack(values).reshape(log_probs.shape)
    return kl, total / count
