# kata: loss-agg
# why: token-mean written as the mean of per-row means, the same as seq-mean-token-mean
# mistake: token_mean_of_row_means
import torch


def _row_means(x, m):
    lens = m.sum(-1)
    keep = (lens > 0).to(x.dtype)
    return ((x * m).sum(-1) / lens.clamp(min=1) * keep).sum() / keep.sum().clamp(min=1)


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    m = loss_mask.to(loss_mat.dtype)
    if loss_agg_mode in ("token-mean", "seq-mean-token-mean"):
        return _row_means(loss_mat, m)
    if loss_agg_mode == "seq-mean-token-sum":
        keep = (m.sum(-1) > 0).to(loss_mat.dtype)
        return ((loss_mat * m).sum(-1) * keep).sum() / keep.sum().clamp(min=1)
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return (loss_mat * m).sum() / (loss_mat.shape[-1] if loss_scale_factor is None else loss_scale_factor)
    raise ValueError(loss_agg_mode)
