# kata: dapo-loss
import torch


def dapo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=0.2, clip_ratio_high=0.28,
              clip_ratio_c=None):
    B, T = log_probs.shape
    keep = response_mask.bool()
    per_response = []
    for i in range(B):
        if not keep[i].any():
            continue
        a = advantages[i] if advantages.dim() == 1 else advantages[i][keep[i]]
        r = torch.exp(log_probs[i][keep[i]] - old_log_probs[i][keep[i]])
        objective = torch.min(r * a, r.clamp(1 - clip_ratio_low, 1 + clip_ratio_high) * a)
        if clip_ratio_c is not None:
            objective = torch.where(a < 0, torch.max(objective, clip_ratio_c * a), objective)
        per_response.append(-objective.mean())
    return torch.stack(per_response).mean()
