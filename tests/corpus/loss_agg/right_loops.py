# kata: loss-agg
# why: plain Python loops over the rows, boolean indexing per row, float64 accumulation inside
import torch

MODES = {"token-mean", "seq-mean-token-sum", "seq-mean-token-mean", "seq-mean-token-sum-norm"}


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    if loss_agg_mode not in MODES:
        raise ValueError(loss_agg_mode)
    B, T = loss_mat.shape
    x = loss_mat.double()
    keep = loss_mask.bool()
    zero = x.sum() * 0.0  # a 0 that stays in the graph
    if loss_agg_mode == "token-mean":
        total, count = zero, 0
        for i in range(B):
            total = total + x[i][keep[i]].sum()
            count += int(keep[i].sum())
        out = total / max(count, 1)
    elif loss_agg_mode == "seq-mean-token-sum-norm":
        total = zero
        for i in range(B):
            total = total + x[i][keep[i]].sum()
        out = total / (T if loss_scale_factor is None else loss_scale_factor)
    else:
        per_seq = []
        for i in range(B):
            row = x[i][keep[i]]
            if row.numel() == 0:
                continue
            per_seq.append(row.mean() if loss_agg_mode == "seq-mean-token-mean" else row.sum())
        out = torch.stack(per_seq).mean() if per_seq else zero
    return out.to(loss_mat.dtype)
