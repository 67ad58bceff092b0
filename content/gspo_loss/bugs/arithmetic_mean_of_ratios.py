# kata: gspo-loss
import torch


def gspo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=3e-4, clip_ratio_high=4e-4):
    B = log_probs.shape[0]
    keep = response_mask.bool()
    objective = []
    for i in range(B):
        token_ratios = torch.exp(log_probs[i][keep[i]] - old_log_probs[i][keep[i]])
        s = token_ratios.mean()
        a = advantages[i]
        objective.append(torch.min(s * a, torch.clamp(s, 1 - clip_ratio_low, 1 + clip_ratio_high) * a))
    return -torch.stack(objective).mean()
