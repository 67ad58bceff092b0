# kata: gspo-loss
# why: one epsilon for both sides of the window
# mistake: symmetric_clip
import torch


def gspo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=3e-4, clip_ratio_high=4e-4):
    eps = clip_ratio_low
    m = response_mask.to(log_probs.dtype)
    s = torch.exp(((log_probs - old_log_probs) * m).sum(-1) / m.sum(-1))
    obj = torch.min(s * advantages, torch.clamp(s, 1 - eps, 1 + eps) * advantages)
    return -obj.mean()
