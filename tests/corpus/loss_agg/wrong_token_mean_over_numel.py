# kata: loss-agg
# why: token-mean divides by loss_mat.numel() (B*T, padding counted); the sequence modes count valid tokens right
# mistake: padding_in_denominator
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    w = loss_mask.to(dtype=loss_mat.dtype)
    if loss_agg_mode == "token-mean":
        return (loss_mat * w).sum() / loss_mat.numel()
    elif loss_agg_mode == "seq-mean-token-sum":
        s, ok = (loss_mat * w).sum(1), (w.sum(1) > 0).to(w.dtype)
        return (s * ok).sum() / ok.sum().clamp(min=1)
    elif loss_agg_mode == "seq-mean-token-mean":
        s, n = (loss_mat * w).sum(1), w.sum(1)
        ok = (n > 0).to(w.dtype)
        return (s / n.clamp(min=1) * ok).sum() / ok.sum().clamp(min=1)
    elif loss_agg_mode == "seq-mean-token-sum-norm":
        return (loss_mat * w).sum() / (loss_scale_factor if loss_scale_factor is not None else loss_mat.size(-1))
    raise ValueError(loss_agg_mode)
