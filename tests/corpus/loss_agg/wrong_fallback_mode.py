# kata: loss-agg
# why: any mode it does not know falls back to token-mean instead of raising
# mistake: unknown_mode_accepted
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    m = loss_mask.to(loss_mat.dtype)
    n = m.sum(-1)
    rows = (n > 0).to(m.dtype)
    if loss_agg_mode == "seq-mean-token-sum":
        return ((loss_mat * m).sum(-1) * rows).sum() / rows.sum().clamp(min=1)
    if loss_agg_mode == "seq-mean-token-mean":
        return ((loss_mat * m).sum(-1) / n.clamp(min=1) * rows).sum() / rows.sum().clamp(min=1)
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return (loss_mat * m).sum() / (loss_mat.shape[-1] if loss_scale_factor is None else loss_scale_factor)
    return (loss_mat * m).sum() / n.sum().clamp(min=1)
