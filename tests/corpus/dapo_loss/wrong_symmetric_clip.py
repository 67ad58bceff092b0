# kata: dapo-loss
# why: PPO's symmetric clip with clip_ratio_low on both sides: clip-higher forgotten
# mistake: symmetric_clip
import torch


def dapo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=0.2, clip_ratio_high=0.28,
              clip_ratio_c=None):
    A = advantages.unsqueeze(-1) if advantages.dim() == 1 else advantages
    eps = clip_ratio_low
    ratio = torch.exp(log_probs - old_log_probs)
    pg = torch.max(-A * ratio, -A * torch.clamp(ratio, 1 - eps, 1 + eps))
    if clip_ratio_c is not None:
        pg = torch.where(A < 0, torch.min(pg, -A * clip_ratio_c), pg)
    m = response_mask.to(pg.dtype)
    return (pg * m).sum() / m.sum()
