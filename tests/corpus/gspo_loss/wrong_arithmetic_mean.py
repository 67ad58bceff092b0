# kata: gspo-loss
# why: the mean of the token ratios instead of the exp of the mean log-ratio
# mistake: arithmetic_mean_of_ratios
import torch


def gspo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=3e-4, clip_ratio_high=4e-4):
    m = response_mask.to(log_probs.dtype)
    token_ratio = torch.exp(log_probs - old_log_probs)
    s = (token_ratio * m).sum(-1) / m.sum(-1)
    obj = torch.min(s * advantages, torch.clamp(s, 1 - clip_ratio_low, 1 + clip_ratio_high) * advantages)
    return -obj.mean()
