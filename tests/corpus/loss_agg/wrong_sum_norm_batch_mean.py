# kata: loss-agg
# why: seq-mean-token-sum-norm as TRL's Dr. GRPO: each row's sum over loss_scale_factor (or T), then .mean() over the batch (1/B too)
# mistake: dr_grpo_divided_by_b
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    m = loss_mask.to(loss_mat.dtype)
    masked = loss_mat * m
    if loss_agg_mode == "token-mean":
        return masked.sum() / torch.clamp(m.sum(), min=1.0)
    if loss_agg_mode == "seq-mean-token-sum-norm":
        norm = loss_mat.shape[-1] if loss_scale_factor is None else loss_scale_factor
        return (masked.sum(dim=-1) / norm).mean()
    if loss_agg_mode in ("seq-mean-token-sum", "seq-mean-token-mean"):
        n = m.sum(-1)
        per = masked.sum(-1)
        if loss_agg_mode == "seq-mean-token-mean":
            per = per / torch.clamp(n, min=1.0)
        has = (n > 0).to(m.dtype)
        return (per * has).sum() / torch.clamp(has.sum(), min=1.0)
    raise ValueError(loss_agg_mode)
