# kata: grpo-loss
import torch


def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs,
                   clip_epsilon=0.2, kl_beta=0.04, mask=None):
    per_token = new_log_probs.dim() == 2
    A = advantages[:, None].expand_as(new_log_probs) if per_token else advantages
    ratio = torch.exp(new_log_probs - old_log_probs)
    capped = torch.where(A >= 0, torch.clamp(ratio, max=1 + clip_epsilon), torch.clamp(ratio, min=1 - clip_epsilon))
    surrogate = capped * A
    log_q = ref_log_probs - new_log_probs
    loss = kl_beta * (torch.exp(log_q) - log_q - 1) - surrogate
    if not per_token:
        return loss.mean()
    weights = torch.ones_like(loss) if mask is None else mask.to(loss.dtype)
    weights = weights / weights.sum(dim=1, keepdim=True)  # each completion's tokens share weight 1
    return (loss * weights).sum() / loss.shape[0]
