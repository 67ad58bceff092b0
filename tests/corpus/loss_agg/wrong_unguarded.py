# kata: loss-agg
# why: no guard on the counts: an all-masked batch gives 0/0 = NaN
# mistake: nan_when_all_masked
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    m = loss_mask.to(loss_mat.dtype)
    lengths = m.sum(-1)
    nonempty = (lengths > 0).to(loss_mat.dtype)
    if loss_agg_mode == "token-mean":
        return (loss_mat * m).sum() / m.sum()
    if loss_agg_mode == "seq-mean-token-sum":
        return ((loss_mat * m).sum(-1) * nonempty).sum() / nonempty.sum()
    if loss_agg_mode == "seq-mean-token-mean":
        per_seq = (loss_mat * m).sum(-1) / lengths.clamp(min=1)
        return (per_seq * nonempty).sum() / nonempty.sum()
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return (loss_mat * m).sum() / (loss_scale_factor or loss_mat.shape[-1])
    raise ValueError(f"unknown mode {loss_agg_mode}")
