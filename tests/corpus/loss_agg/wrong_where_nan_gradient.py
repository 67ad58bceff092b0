# kata: loss-agg
# why: guards each empty count with torch.where(count > 0, total / count, 0): the value is 0, but the branch not taken is 0/0 and its NaN reaches the gradient
# mistake: nan_when_all_masked
import torch


def _safe_div(a, b):
    return torch.where(b > 0, a / b, torch.zeros_like(a))


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    m = loss_mask.to(loss_mat.dtype)
    if loss_agg_mode == "token-mean":
        return _safe_div((loss_mat * m).sum(), m.sum())
    if loss_agg_mode == "seq-mean-token-sum-norm":
        div = loss_mat.shape[-1] if loss_scale_factor is None else loss_scale_factor
        return (loss_mat * m).sum() / div
    if loss_agg_mode in ("seq-mean-token-sum", "seq-mean-token-mean"):
        n = m.sum(-1)
        seq = (loss_mat * m).sum(-1)
        if loss_agg_mode == "seq-mean-token-mean":
            seq = _safe_div(seq, n)
        present = (n > 0).to(loss_mat.dtype)
        return _safe_div((seq * present).sum(), present.sum())
    raise ValueError(f"unknown loss_agg_mode {loss_agg_mode}")
