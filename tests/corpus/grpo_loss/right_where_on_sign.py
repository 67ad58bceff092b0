# kata: grpo-loss
# why: clipping written as torch.where on the sign of A instead of min(unclipped, clipped)
import torch
def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs, clip_epsilon=0.2, kl_beta=0.04, mask=None):
    A = advantages if new_log_probs.dim() == 1 else advantages.unsqueeze(-1)
    ratio = (new_log_probs - old_log_probs).exp()
    surr = torch.where(A >= 0, torch.minimum(ratio, torch.full_like(ratio, 1 + clip_epsilon)) * A,
                       torch.maximum(ratio, torch.full_like(ratio, 1 - clip_epsilon)) * A)
    d = ref_log_probs - new_log_probs
    per_tok = -(surr - kl_beta * (d.exp() - d - 1))
    if per_tok.dim() == 1:
        return per_tok.mean()
    m = torch.ones_like(per_tok) if mask is None else mask.to(per_tok.dtype)
    return ((per_tok * m).sum(-1) / m.sum(-1)).mean()
