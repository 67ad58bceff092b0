# kata: gspo-loss
import torch


def gspo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=3e-4, clip_ratio_high=4e-4):
    m = response_mask.to(log_probs.dtype)
    # length-normalised sequence log-ratio, padding zeroed first
    seq_log_ratio = ((log_probs - old_log_probs) * m).mean(dim=-1)
    s = torch.exp(seq_log_ratio)
    lower, upper = 1 - clip_ratio_low, 1 + clip_ratio_high
    unclipped = s * advantages
    clipped = s.clamp(lower, upper) * advantages
    return -torch.minimum(unclipped, clipped).mean()
