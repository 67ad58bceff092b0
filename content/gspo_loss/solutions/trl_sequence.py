# kata: gspo-loss
import torch


def gspo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=3e-4, clip_ratio_high=4e-4):
    mask = response_mask.float() if log_probs.dtype == torch.float32 else response_mask.to(log_probs.dtype)
    log_ratio = log_probs - old_log_probs
    log_importance_weights = (log_ratio * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)
    log_importance_weights = log_importance_weights.unsqueeze(-1)
    coef_1 = torch.exp(log_importance_weights)
    coef_2 = torch.clamp(coef_1, 1 - clip_ratio_low, 1 + clip_ratio_high)
    per_token_loss1 = coef_1 * advantages.unsqueeze(1)
    per_token_loss2 = coef_2 * advantages.unsqueeze(1)
    per_token_loss = -torch.min(per_token_loss1, per_token_loss2)
    return ((per_token_loss * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)).mean()
