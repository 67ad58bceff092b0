# kata: grpo-loss
import torch


def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs,
                   clip_epsilon=0.2, kl_beta=0.04, mask=None):
    A = advantages.unsqueeze(-1) if new_log_probs.dim() == 2 else advantages
    ratio = (new_log_probs - old_log_probs).exp()
    unclipped = ratio * A
    clipped = ratio.clamp(1 - clip_epsilon, 1 + clip_epsilon) * A
    surrogate = torch.where(unclipped < clipped, unclipped, clipped)

    # k3 estimator: exp(x) - x - 1 >= 0
    log_ratio = new_log_probs - ref_log_probs
    kl = log_ratio.exp() - log_ratio - 1

    loss = kl_beta * kl - surrogate
    if loss.dim() == 1:
        return loss.mean()
    if mask is None:
        return loss.mean(dim=-1).mean()
    valid = mask.bool()
    total = loss.masked_fill(~valid, 0.0).sum(dim=-1)
    return (total / valid.sum(dim=-1)).mean()
