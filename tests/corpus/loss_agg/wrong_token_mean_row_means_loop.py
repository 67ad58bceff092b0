# kata: loss-agg
# why: token-mean written as a Python loop that averages each row and then averages the rows (a short row weighs as much as a long one)
# mistake: token_mean_of_row_means
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    m = loss_mask.to(loss_mat.dtype)
    if loss_agg_mode in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum"):
        vals = []
        for row, mr in zip(loss_mat, m):
            n = mr.sum()
            if n == 0:
                continue
            s = (row * mr).sum()
            vals.append(s if loss_agg_mode == "seq-mean-token-sum" else s / n)
        if not vals:
            return (loss_mat * m).sum()
        return torch.stack(vals).mean()
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return (loss_mat * m).sum() / (loss_scale_factor or loss_mat.shape[-1])
    raise ValueError(loss_agg_mode)
