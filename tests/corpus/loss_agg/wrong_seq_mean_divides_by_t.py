# kata: loss-agg
# why: loops over the rows; seq-mean-token-mean divides each row's sum by T (its padded length), token-mean is right
# mistake: padding_in_denominator
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-sum", "seq-mean-token-mean", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    B, T = loss_mat.shape
    m = loss_mask.to(loss_mat.dtype)
    if loss_agg_mode == "token-mean":
        return (loss_mat * m).sum() / m.sum().clamp(min=1)
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return (loss_mat * m).sum() / (T if loss_scale_factor is None else loss_scale_factor)
    total = (loss_mat * m).sum() * 0  # 0, in the graph
    rows = 0
    for i in range(B):
        if m[i].sum() == 0:
            continue
        s = (loss_mat[i] * m[i]).sum()
        total = total + (s / T if loss_agg_mode == "seq-mean-token-mean" else s)
        rows += 1
    return total / max(rows, 1)
