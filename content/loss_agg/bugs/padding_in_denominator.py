# kata: loss-agg
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    valid = loss_mask.bool()
    x = torch.where(valid, loss_mat, torch.zeros_like(loss_mat))
    has_tokens = valid.any(dim=-1).to(loss_mat.dtype)
    n_seq = has_tokens.sum().clamp(min=1)

    if loss_agg_mode == "token-mean":
        return x.mean()
    if loss_agg_mode == "seq-mean-token-sum":
        return (x.sum(dim=-1) * has_tokens).sum() / n_seq
    if loss_agg_mode == "seq-mean-token-mean":
        return (x.mean(dim=-1) * has_tokens).sum() / n_seq
    if loss_agg_mode == "seq-mean-token-sum-norm":
        divisor = loss_mat.shape[-1] if loss_scale_factor is None else loss_scale_factor
        return x.sum() / divisor
    raise ValueError(f"loss_agg_mode must be one of the four modes, got {loss_agg_mode!r}")
