# kata: dapo-loss
# why: PPO's min carried over to the negated loss: min(-A·r, -A·clip(r)) is the optimistic bound
# mistake: min_not_max
import torch


def dapo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=0.2, clip_ratio_high=0.28,
              clip_ratio_c=None):
    A = advantages[:, None] if advantages.dim() == 1 else advantages
    ratio = torch.exp(log_probs - old_log_probs)
    loss = torch.min(-A * ratio, -A * torch.clamp(ratio, 1 - clip_ratio_low, 1 + clip_ratio_high))
    if clip_ratio_c is not None:
        loss = torch.where(A < 0, torch.min(loss, -A * clip_ratio_c), loss)
    m = response_mask.to(loss.dtype)
    return (loss * m).sum() / m.sum()
