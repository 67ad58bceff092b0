# kata: loss-agg
# why: seq-mean-token-mean divides each row by its own count unclamped, then keeps the non-empty rows by multiplying: 0/0 = NaN for an empty row spoils the sum
# mistake: nan_when_all_masked
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    m = loss_mask.to(loss_mat.dtype)
    per_tok = loss_mat * m
    if loss_agg_mode == "token-mean":
        return per_tok.sum() / m.sum().clamp(min=1)
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return per_tok.sum() / (loss_scale_factor if loss_scale_factor is not None else m.shape[-1])
    count = m.sum(-1)
    alive = (count > 0).to(m.dtype)
    if loss_agg_mode == "seq-mean-token-sum":
        return (per_tok.sum(-1) * alive).sum() / alive.sum().clamp(min=1)
    if loss_agg_mode == "seq-mean-token-mean":
        return (per_tok.sum(-1) / count * alive).sum() / alive.sum().clamp(min=1)
    raise ValueError(loss_agg_mode)
