# kata: dapo-loss
# why: clip_ratio_c taken as an argument and never used
# mistake: dual_clip_ignored
import torch


def dapo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=0.2, clip_ratio_high=0.28,
              clip_ratio_c=None):
    A = advantages[:, None] if advantages.dim() == 1 else advantages
    ratio = torch.exp(log_probs - old_log_probs)
    surr = torch.min(ratio * A, torch.clamp(ratio, 1 - clip_ratio_low, 1 + clip_ratio_high) * A)
    m = response_mask.to(surr.dtype)
    return -(surr * m).sum() / m.sum()
