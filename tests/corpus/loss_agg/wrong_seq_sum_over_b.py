# kata: loss-agg
# why: seq-mean-token-sum takes .mean() over all B rows (empty rows counted); seq-mean-token-mean skips empty rows as it should
# mistake: empty_rows_counted
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    m = loss_mask.to(loss_mat.dtype)
    if loss_agg_mode == "token-mean":
        return (loss_mat * m).sum() / m.sum().clamp(min=1)
    if loss_agg_mode == "seq-mean-token-sum":
        return (loss_mat * m).sum(-1).mean()
    if loss_agg_mode == "seq-mean-token-mean":
        n = m.sum(-1)
        idx = n > 0
        if not idx.any():
            return (loss_mat * m).sum()
        return ((loss_mat * m).sum(-1)[idx] / n[idx]).mean()
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return (loss_mat * m).sum() / (loss_mat.shape[-1] if loss_scale_factor is None else loss_scale_factor)
    raise ValueError(loss_agg_mode)
