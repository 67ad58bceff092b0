# kata: loss-agg
# why: every mode masks except seq-mean-token-sum-norm, which sums loss_mat as it is (padding garbage included)
# mistake: mask_ignored
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    m = loss_mask.to(loss_mat.dtype)
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return loss_mat.sum() / (loss_mat.shape[-1] if loss_scale_factor is None else loss_scale_factor)
    if loss_agg_mode == "token-mean":
        return (loss_mat * m).sum() / m.sum().clamp(min=1)
    if loss_agg_mode in ("seq-mean-token-sum", "seq-mean-token-mean"):
        n = m.sum(-1)
        per = (loss_mat * m).sum(-1)
        if loss_agg_mode == "seq-mean-token-mean":
            per = per / n.clamp(min=1)
        keep = (n > 0).to(m.dtype)
        return (per * keep).sum() / keep.sum().clamp(min=1)
    raise ValueError(loss_agg_mode)
