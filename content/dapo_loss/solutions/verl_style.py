# kata: dapo-loss
import torch


def masked_mean(values, mask):
    return (values * mask).sum() / (mask.sum() + 1e-8)


def dapo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=0.2, clip_ratio_high=0.28,
              clip_ratio_c=None):
    if advantages.dim() == 1:
        advantages = advantages.unsqueeze(-1)
    mask = response_mask.to(log_probs.dtype)
    negative_approx_kl = torch.clamp(log_probs - old_log_probs, min=-20.0, max=20.0)
    ratio = torch.exp(negative_approx_kl)
    pg_losses1 = -advantages * ratio
    pg_losses2 = -advantages * torch.clamp(ratio, 1 - clip_ratio_low, 1 + clip_ratio_high)
    clip_pg_losses1 = torch.maximum(pg_losses1, pg_losses2)
    if clip_ratio_c is not None:
        pg_losses3 = -advantages * clip_ratio_c
        clip_pg_losses2 = torch.min(pg_losses3, clip_pg_losses1)
        pg_losses = torch.where(advantages < 0, clip_pg_losses2, clip_pg_losses1)
    else:
        pg_losses = clip_pg_losses1
    return masked_mean(pg_losses, mask)
