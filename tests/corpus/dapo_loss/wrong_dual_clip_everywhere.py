# kata: dapo-loss
# why: the dual-clip cap min(pg, -A·c) applied to every token, the ones with A > 0 too
# mistake: dual_clip_on_positive
import torch


def dapo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=0.2, clip_ratio_high=0.28,
              clip_ratio_c=None):
    A = advantages[:, None] if advantages.dim() == 1 else advantages
    ratio = torch.exp(log_probs - old_log_probs)
    pg = torch.maximum(-A * ratio, -A * torch.clamp(ratio, 1 - clip_ratio_low, 1 + clip_ratio_high))
    if clip_ratio_c is not None:
        pg = torch.minimum(pg, -A * clip_ratio_c)
    m = response_mask.to(pg.dtype)
    return (pg * m).sum() / m.sum()
