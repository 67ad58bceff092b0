# kata: gspo-loss
# why: GRPO's token-level ratio and clip with GSPO's window: each token clipped on its own
# mistake: token_level_ratio
import torch


def gspo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=3e-4, clip_ratio_high=4e-4):
    m = response_mask.to(log_probs.dtype)
    ratio = torch.exp(log_probs - old_log_probs)
    A = advantages[:, None]
    obj = torch.min(ratio * A, torch.clamp(ratio, 1 - clip_ratio_low, 1 + clip_ratio_high) * A)
    return -((obj * m).sum(-1) / m.sum(-1)).mean()
