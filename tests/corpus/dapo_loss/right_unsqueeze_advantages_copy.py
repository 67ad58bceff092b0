# kata: dapo-loss
# why: [B] advantages turned into a column with unsqueeze(-1), a new view: the caller's advantages keep their shape
import torch


def dapo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=0.2, clip_ratio_high=0.28,
              clip_ratio_c=None):
    if advantages.dim() == 1:
        advantages = advantages.unsqueeze(-1)  # (B, 1): a view; the caller's tensor is left as it was
    ratio = torch.exp(log_probs - old_log_probs)
    pg = torch.maximum(-advantages * ratio, -advantages * torch.clamp(ratio, 1 - clip_ratio_low, 1 + clip_ratio_high))
    if clip_ratio_c is not None:
        pg = torch.where(advantages < 0, torch.minimum(pg, -advantages * clip_ratio_c), pg)
    m = response_mask.to(pg.dtype)
    return (pg * m).sum() / m.sum()
