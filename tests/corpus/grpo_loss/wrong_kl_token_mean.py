# kata: grpo-loss
# why: the surrogate averaged per completion, the KL term over all valid tokens at once
# mistake: kl_token_level_mean
import torch


def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs, clip_epsilon=0.2, kl_beta=0.04,
                   mask=None):
    A = advantages if new_log_probs.dim() == 1 else advantages.unsqueeze(-1)
    ratio = torch.exp(new_log_probs - old_log_probs)
    surrogate = torch.min(ratio * A, torch.clamp(ratio, 1 - clip_epsilon, 1 + clip_epsilon) * A)
    d = ref_log_probs - new_log_probs
    kl = torch.exp(d) - d - 1
    if new_log_probs.dim() == 1:
        return -(surrogate - kl_beta * kl).mean()
    m = torch.ones_like(new_log_probs) if mask is None else mask.to(new_log_probs.dtype)
    per_completion = (surrogate * m).sum(-1) / m.sum(-1)
    return -(per_completion.mean() - kl_beta * (kl * m).sum() / m.sum())
