# kata: loss-agg
import torch


def masked_sum(values, mask, dim=None):
    out = values * mask
    return out.sum() if dim is None else out.sum(dim)


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    mask = loss_mask.to(loss_mat.dtype)
    bsz, max_len = loss_mat.shape
    if loss_agg_mode == "token-mean":
        return masked_sum(loss_mat, mask) / mask.sum().clamp(min=1)

    seq_valid = (mask.sum(-1) > 0).to(loss_mat.dtype)
    num_seqs = seq_valid.sum().clamp(min=1)
    if loss_agg_mode == "seq-mean-token-sum":
        return masked_sum(masked_sum(loss_mat, mask, -1), seq_valid) / num_seqs
    if loss_agg_mode == "seq-mean-token-mean":
        seq_losses = masked_sum(loss_mat, mask, -1) / mask.sum(-1).clamp(min=1)
        return masked_sum(seq_losses, seq_valid) / num_seqs
    if loss_agg_mode == "seq-mean-token-sum-norm":
        # Dr. GRPO: a constant normaliser instead of the per-response length
        norm = max_len if loss_scale_factor is None else loss_scale_factor
        return masked_sum(loss_mat, mask) / (bsz * norm)
    raise ValueError(f"Invalid loss_agg_mode: {loss_agg_mode}")
