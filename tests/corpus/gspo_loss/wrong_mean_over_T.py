# kata: gspo-loss
# why: padding zeroed, then .mean(-1): the log-ratio is divided by T instead of the response's length
# mistake: mean_over_T
import torch


def gspo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=3e-4, clip_ratio_high=4e-4):
    log_ratio = (log_probs - old_log_probs) * response_mask.to(log_probs.dtype)
    s = torch.exp(log_ratio.mean(dim=-1))
    obj = torch.min(s * advantages, torch.clamp(s, 1 - clip_ratio_low, 1 + clip_ratio_high) * advantages)
    return -obj.mean()
