# kata: dapo-loss
import torch


def dapo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=0.2, clip_ratio_high=0.28,
              clip_ratio_c=None):
    if advantages.dim() == 1:
        advantages = advantages.unsqueeze(-1)  # one advantage per response, shared by its tokens
    cliprange = clip_ratio_low
    ratio = torch.exp(log_probs - old_log_probs)
    pg_losses1 = -advantages * ratio
    pg_losses2 = -advantages * torch.clamp(ratio, 1.0 - cliprange, 1.0 + cliprange)
    pg_losses = torch.maximum(pg_losses1, pg_losses2)
    if clip_ratio_c is not None:
        pg_losses3 = -advantages * clip_ratio_c
        pg_losses = torch.where(advantages < 0, torch.minimum(pg_losses, pg_losses3), pg_losses)
    mask = response_mask.to(pg_losses.dtype)
    return (pg_losses * mask).sum() / mask.sum()
