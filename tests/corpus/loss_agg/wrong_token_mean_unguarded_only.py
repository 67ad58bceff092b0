# kata: loss-agg
# why: the sequence modes clamp their counts; token-mean divides by loss_mask.sum() unclamped (0/0 = NaN on an all-masked batch)
# mistake: nan_when_all_masked
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    mask = loss_mask.float().to(loss_mat.dtype)
    if loss_agg_mode == "token-mean":
        return torch.sum(loss_mat * mask) / torch.sum(mask)
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return torch.sum(loss_mat * mask) / (loss_mat.shape[1] if loss_scale_factor is None else loss_scale_factor)
    if loss_agg_mode not in ("seq-mean-token-sum", "seq-mean-token-mean"):
        raise ValueError(loss_agg_mode)
    n = mask.sum(dim=1)
    rows = torch.sum(loss_mat * mask, dim=1)
    if loss_agg_mode == "seq-mean-token-mean":
        rows = rows / torch.clamp(n, min=1)
    keep = n > 0
    return torch.sum(rows * keep) / torch.clamp(keep.sum(), min=1)
