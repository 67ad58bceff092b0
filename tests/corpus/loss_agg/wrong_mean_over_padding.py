# kata: loss-agg
# why: (x * mask).mean() and a per-row .mean(-1): padding zeroed in the numerator but counted in the denominator
# mistake: padding_in_denominator
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    m = loss_mask.to(loss_mat.dtype)
    x = loss_mat * m
    nonempty = (m.sum(-1) > 0).to(x.dtype)
    if loss_agg_mode == "token-mean":
        return x.mean()
    if loss_agg_mode == "seq-mean-token-sum":
        return (x.sum(-1) * nonempty).sum() / nonempty.sum().clamp(min=1)
    if loss_agg_mode == "seq-mean-token-mean":
        return (x.mean(-1) * nonempty).sum() / nonempty.sum().clamp(min=1)
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return x.sum() / (loss_scale_factor if loss_scale_factor is not None else x.shape[-1])
    raise ValueError(loss_agg_mode)
