# kata: dapo-loss
# why: [B] advantages unsqueezed as a row, advantages[None, :]: it broadcasts along the tokens when B = T
# mistake: advantages_along_tokens
import torch


def dapo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=0.2, clip_ratio_high=0.28,
              clip_ratio_c=None):
    A = advantages.unsqueeze(0) if advantages.dim() == 1 else advantages
    ratio = torch.exp(log_probs - old_log_probs)
    pg = torch.maximum(-A * ratio, -A * torch.clamp(ratio, 1 - clip_ratio_low, 1 + clip_ratio_high))
    if clip_ratio_c is not None:
        pg = torch.where(A < 0, torch.minimum(pg, -A * clip_ratio_c), pg)
    m = response_mask.to(pg.dtype)
    return (pg * m).sum() / m.sum()
