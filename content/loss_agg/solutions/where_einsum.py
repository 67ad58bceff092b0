# kata: loss-agg
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    valid = loss_mask.bool()
    x = torch.where(valid, loss_mat, torch.zeros_like(loss_mat))
    w = valid.to(loss_mat.dtype)
    lens = torch.einsum("bt->b", w)
    sums = torch.einsum("bt->b", x)
    has = (lens > 0).to(loss_mat.dtype)
    n_seq = has.sum().clamp(min=1)

    def token_mean():
        return sums.sum() / lens.sum().clamp(min=1)

    def seq_sum():
        return torch.einsum("b,b->", sums, has) / n_seq

    def seq_mean():
        return torch.einsum("b,b->", sums / lens.clamp(min=1), has) / n_seq

    def sum_norm():
        return sums.sum() / (loss_mat.shape[-1] if loss_scale_factor is None else loss_scale_factor)

    reducers = {"token-mean": token_mean, "seq-mean-token-sum": seq_sum, "seq-mean-token-mean": seq_mean,
                "seq-mean-token-sum-norm": sum_norm}
    if loss_agg_mode not in reducers:
        raise ValueError(f"unknown loss_agg_mode {loss_agg_mode!r}")
    return reducers[loss_agg_mode]()
