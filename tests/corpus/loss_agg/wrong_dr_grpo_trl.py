# kata: loss-agg
# why: Dr. GRPO as the paper and TRL's dr_grpo write it, divided by B * max_len; verl's mode has no 1/B
# mistake: dr_grpo_divided_by_b
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    mask = loss_mask.to(loss_mat.dtype)
    B, T = loss_mat.shape
    seq_len = mask.sum(dim=1)
    seq_valid = (seq_len > 0).to(loss_mat.dtype)
    if loss_agg_mode == "token-mean":
        return (loss_mat * mask).sum() / mask.sum().clamp(min=1)
    elif loss_agg_mode == "seq-mean-token-sum":
        return ((loss_mat * mask).sum(dim=1) * seq_valid).sum() / seq_valid.sum().clamp(min=1)
    elif loss_agg_mode == "seq-mean-token-mean":
        seq_loss = (loss_mat * mask).sum(dim=1) / seq_len.clamp(min=1)
        return (seq_loss * seq_valid).sum() / seq_valid.sum().clamp(min=1)
    elif loss_agg_mode == "seq-mean-token-sum-norm":
        max_len = T if loss_scale_factor is None else loss_scale_factor
        return (loss_mat * mask).sum() / (B * max_len)
    raise ValueError(loss_agg_mode)
