# kata: loss-agg
import torch


def masked_sum(values, mask, axis=None):
    return (values * mask).sum(axis) if axis is not None else (values * mask).sum()


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    loss_mask = loss_mask.to(loss_mat.dtype)
    if loss_agg_mode == "token-mean":
        n = loss_mask.sum()
        return masked_sum(loss_mat, loss_mask) / torch.clamp(n, min=1.0)
    elif loss_agg_mode == "seq-mean-token-sum":
        seq_losses = masked_sum(loss_mat, loss_mask, -1)
        seq_mask = (loss_mask.sum(-1) > 0).to(loss_mat.dtype)
        return masked_sum(seq_losses, seq_mask) / torch.clamp(seq_mask.sum(), min=1.0)
    elif loss_agg_mode == "seq-mean-token-mean":
        seq_losses = masked_sum(loss_mat, loss_mask, -1) / (loss_mask.sum(-1) + 1e-8)
        seq_mask = (loss_mask.sum(-1) > 0).to(loss_mat.dtype)
        return masked_sum(seq_losses, seq_mask) / torch.clamp(seq_mask.sum(), min=1.0)
    elif loss_agg_mode == "seq-mean-token-sum-norm":
        if loss_scale_factor is None:
            loss_scale_factor = loss_mask.shape[-1]
        return masked_sum(loss_mat, loss_mask) / loss_scale_factor
    else:
        raise ValueError(f"Invalid loss_agg_mode: {loss_agg_mode}")
