# kata: loss-agg
# why: seq-mean-token-mean written as one mean over every valid token, as token-mean is
# mistake: seq_mean_over_tokens
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    valid = loss_mask.bool()
    m = valid.to(loss_mat.dtype)
    if loss_agg_mode in ("token-mean", "seq-mean-token-mean"):
        return (loss_mat * m).sum() / m.sum().clamp(min=1)
    if loss_agg_mode == "seq-mean-token-sum":
        has = valid.any(-1).to(loss_mat.dtype)
        return ((loss_mat * m).sum(-1) * has).sum() / has.sum().clamp(min=1)
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return (loss_mat * m).sum() / (loss_scale_factor or loss_mat.shape[1])
    raise ValueError(loss_agg_mode)
