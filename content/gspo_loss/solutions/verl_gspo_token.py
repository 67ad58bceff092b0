# kata: gspo-loss
import torch


def masked_sum(x, mask, dim):
    return (x * mask).sum(dim)


def gspo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=3e-4, clip_ratio_high=4e-4):
    mask = response_mask.to(log_probs.dtype)
    negative_approx_kl = log_probs - old_log_probs
    seq_lengths = torch.sum(mask, dim=-1).clamp(min=1)
    negative_approx_kl_seq = masked_sum(negative_approx_kl, mask, -1) / seq_lengths
    log_seq_importance_ratio = log_probs - log_probs.detach() + negative_approx_kl_seq.detach().unsqueeze(-1)
    log_seq_importance_ratio = torch.clamp(log_seq_importance_ratio, max=10.0)
    seq_importance_ratio = torch.exp(log_seq_importance_ratio)
    adv = advantages.unsqueeze(-1)
    pg_losses1 = -adv * seq_importance_ratio
    pg_losses2 = -adv * torch.clamp(seq_importance_ratio, 1 - clip_ratio_low, 1 + clip_ratio_high)
    pg_losses = torch.maximum(pg_losses1, pg_losses2)
    seq_losses = masked_sum(pg_losses, mask, -1) / (seq_lengths + 1e-8)
    return seq_losses.mean()
