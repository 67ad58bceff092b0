# kata: loss-agg
# why: a dict of per-mode lambdas; seq-mean-token-sum-norm always divides by T, loss_scale_factor is never read
# mistake: scale_factor_ignored
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    m = loss_mask.to(loss_mat.dtype)
    s = loss_mat * m
    n = m.sum(-1)
    keep = (n > 0).to(m.dtype)
    modes = {
        "token-mean": lambda: s.sum() / m.sum().clamp(min=1),
        "seq-mean-token-sum": lambda: (s.sum(-1) * keep).sum() / keep.sum().clamp(min=1),
        "seq-mean-token-mean": lambda: (s.sum(-1) / n.clamp(min=1) * keep).sum() / keep.sum().clamp(min=1),
        "seq-mean-token-sum-norm": lambda: s.sum() / loss_mat.shape[-1],
    }
    if loss_agg_mode not in modes:
        raise ValueError(f"unsupported loss_agg_mode {loss_agg_mode!r}")
    return modes[loss_agg_mode]()
