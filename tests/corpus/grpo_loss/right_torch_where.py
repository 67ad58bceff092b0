# kata: grpo-loss
# why: picks the pessimistic term with torch.where instead of torch.min; masks with masked_fill
import torch


def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs,
                   clip_epsilon=0.2, kl_beta=0.04, mask=None):
    A = advantages.unsqueeze(-1) if new_log_probs.dim() == 2 else advantages
    ratio = (new_log_probs - old_log_probs).exp()
    unclipped = ratio * A
    clipped = ratio.clamp(1 - clip_epsilon, 1 + clip_epsilon) * A
    surrogate = torch.where(unclipped < clipped, unclipped, clipped)
    diff = ref_log_probs - new_log_probs
    per_token = -(surrogate - kl_beta * (diff.exp() - diff - 1))
    if per_token.dim() == 1:
        return per_token.mean()
    if mask is None:
        return per_token.mean(dim=-1).mean()
    valid = mask.bool()
    total = per_token.masked_fill(~valid, 0.0).sum(dim=-1)
    return (total / valid.sum(dim=-1)).mean()
