# kata: loss-agg
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    m = loss_mask.to(loss_mat.dtype)
    token_counts = m.sum(dim=-1)  # valid tokens per response
    if loss_agg_mode == "token-mean":
        return (loss_mat * m).sum() / m.sum().clamp(min=1.0)
    if loss_agg_mode == "seq-mean-token-sum":
        per_seq = (loss_mat * m).sum(dim=-1)
    elif loss_agg_mode == "seq-mean-token-mean":
        per_seq = (loss_mat * m).sum(dim=-1) / token_counts.clamp(min=1.0)
    elif loss_agg_mode == "seq-mean-token-sum-norm":
        scale = loss_mat.shape[-1] if loss_scale_factor is None else loss_scale_factor
        return (loss_mat * m).sum() / scale
    else:
        raise ValueError(f"unknown loss_agg_mode: {loss_agg_mode}")
    return per_seq.mean()
