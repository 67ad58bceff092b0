# kata: loss-agg
# why: an all-masked batch returns a fresh torch.zeros(()) that backward() cannot reach
# mistake: zero_cut_off_graph
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-sum", "seq-mean-token-mean", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    m = loss_mask.to(loss_mat.dtype)
    if m.sum() == 0:
        return torch.zeros((), dtype=loss_mat.dtype, device=loss_mat.device)
    if loss_agg_mode == "token-mean":
        return (loss_mat * m).sum() / m.sum()
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return (loss_mat * m).sum() / (loss_mat.shape[-1] if loss_scale_factor is None else loss_scale_factor)
    lens = m.sum(-1)
    per_seq = (loss_mat * m).sum(-1)
    if loss_agg_mode == "seq-mean-token-mean":
        per_seq = per_seq / lens.clamp(min=1)
    return per_seq[lens > 0].mean()
