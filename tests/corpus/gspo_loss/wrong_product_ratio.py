# kata: gspo-loss
# why: the sequence ratio as the product of the token ratios, π(y)/π_old(y), without the 1/|y| power
# mistake: no_length_normalisation
import torch


def gspo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=3e-4, clip_ratio_high=4e-4):
    m = response_mask.to(log_probs.dtype)
    seq_log_ratio = ((log_probs - old_log_probs) * m).sum(dim=-1)
    s = seq_log_ratio.exp()
    obj = torch.min(s * advantages, s.clamp(1 - clip_ratio_low, 1 + clip_ratio_high) * advantages)
    return -obj.mean()
