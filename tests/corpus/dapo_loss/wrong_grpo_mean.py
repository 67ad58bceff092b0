# kata: dapo-loss
# why: each response averaged over its own tokens first (GRPO), not DAPO's token-level mean
# mistake: sample_level_mean
import torch


def dapo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=0.2, clip_ratio_high=0.28,
              clip_ratio_c=None):
    A = advantages[:, None] if advantages.dim() == 1 else advantages
    ratio = torch.exp(log_probs - old_log_probs)
    pg = torch.maximum(-A * ratio, -A * ratio.clamp(1 - clip_ratio_low, 1 + clip_ratio_high))
    if clip_ratio_c is not None:
        pg = torch.where(A < 0, torch.minimum(pg, -A * clip_ratio_c), pg)
    m = response_mask.to(pg.dtype)
    per_response = (pg * m).sum(-1) / m.sum(-1).clamp(min=1)
    has_tokens = (m.sum(-1) > 0).to(pg.dtype)
    return (per_response * has_tokens).sum() / has_tokens.sum()
