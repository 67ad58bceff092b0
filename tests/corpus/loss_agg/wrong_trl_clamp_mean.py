# kata: loss-agg
# why: TRL's GRPO form, ((l*m).sum(-1) / m.sum(-1).clamp(min=1)).mean(): rows with no valid token count as zeros
# mistake: empty_rows_counted
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    m = loss_mask.to(loss_mat.dtype)
    if loss_agg_mode == "token-mean":
        return (loss_mat * m).sum() / m.sum().clamp(min=1.0)
    if loss_agg_mode == "seq-mean-token-sum":
        return (loss_mat * m).sum(-1).mean()
    if loss_agg_mode == "seq-mean-token-mean":
        return ((loss_mat * m).sum(-1) / m.sum(-1).clamp(min=1.0)).mean()
    if loss_agg_mode == "seq-mean-token-sum-norm":
        scale = loss_mat.shape[-1] if loss_scale_factor is None else loss_scale_factor
        return (loss_mat * m).sum() / scale
    raise ValueError(loss_agg_mode)
