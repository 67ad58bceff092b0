# kata: dapo-loss
import torch


def dapo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=0.2, clip_ratio_high=0.28,
              clip_ratio_c=None):
    A = advantages if advantages.dim() == 2 else advantages[:, None]
    log_ratio = log_probs - old_log_probs
    ratio = log_ratio.exp()
    clipped = ratio.clamp(1 - clip_ratio_low, 1 + clip_ratio_high)
    loss = torch.max(-A * ratio, -A * clipped)
    if clip_ratio_c is not None:
        # dual clip: bound the loss when the ratio explodes
        loss = torch.min(loss, -A * clip_ratio_c)
    m = response_mask.to(loss.dtype)
    return (loss * m).sum() / m.sum()
