# kata: dapo-loss
import torch


def dapo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=0.2, clip_ratio_high=0.28,
              clip_ratio_c=None):
    B, T = log_probs.shape
    keep = response_mask.bool()
    terms = []
    for i in range(B):
        for t in range(T):
            if not keep[i, t]:
                continue
            a = advantages[i] if advantages.dim() == 1 else advantages[i, t]
            r = torch.exp(log_probs[i, t] - old_log_probs[i, t])
            obj = torch.min(r * a, torch.clamp(r, 1 - clip_ratio_low, 1 + clip_ratio_high) * a)
            if clip_ratio_c is not None and a < 0:
                obj = torch.max(obj, clip_ratio_c * a)
            terms.append(obj)
    return -torch.stack(terms).mean()
