# kata: loss-agg
import torch

VALID_MODES = ("token-mean", "seq-mean-token-sum", "seq-mean-token-mean", "seq-mean-token-sum-norm")


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    if loss_agg_mode not in VALID_MODES:
        raise ValueError(loss_agg_mode)
    B, T = loss_mat.shape
    keep = loss_mask.bool()
    zero = (loss_mat * 0).sum()  # stays in the graph even when nothing is valid

    if loss_agg_mode == "seq-mean-token-sum-norm":
        total = zero
        for i in range(B):
            total = total + loss_mat[i][keep[i]].sum()
        return total / (T if loss_scale_factor is None else loss_scale_factor)

    per_row = []
    for i in range(B):
        row = loss_mat[i][keep[i]]
        if row.numel() == 0:
            continue  # a response with no valid token does not count
        if loss_agg_mode == "seq-mean-token-sum":
            per_row.append(row.sum())
        else:
            per_row.append(row.mean())
    if not per_row:
        return zero
    return torch.stack(per_row).mean()
