# kata: gspo-loss
import torch


def gspo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=3e-4, clip_ratio_high=4e-4):
    mask = response_mask.to(log_probs.dtype)
    lengths = mask.sum(dim=-1)

    log_ratio = log_probs - old_log_probs
    ratio = torch.exp(log_ratio)  # importance weight
    adv = advantages.unsqueeze(-1)
    surr1 = ratio * adv
    surr2 = torch.clamp(ratio, 1 - clip_ratio_low, 1 + clip_ratio_high) * adv
    per_token = -torch.min(surr1, surr2)

    per_seq = (per_token * mask).sum(dim=-1) / lengths
    return per_seq.mean()
