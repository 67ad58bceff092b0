# kata: grpo-loss
import torch


def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs,
                   clip_epsilon=0.2, kl_beta=0.04, mask=None):
    # one advantage per completion, shared by all its tokens
    A = advantages if new_log_probs.dim() == 1 else advantages.unsqueeze(-1)

    ratio = torch.exp(new_log_probs - old_log_probs)
    surr1 = ratio * A
    surr2 = torch.clamp(ratio, 1 - clip_epsilon, 1 + clip_epsilon) * A
    policy_obj = torch.min(surr1, surr2)

    # KL penalty between the current policy and the reference
    kl = torch.exp(new_log_probs) * (new_log_probs - ref_log_probs)

    per_token = -(policy_obj - kl_beta * kl)
    if per_token.dim() == 1:
        return per_token.mean()
    m = torch.ones_like(per_token) if mask is None else mask.to(per_token.dtype)
    per_seq = (per_token * m).sum(dim=-1) / m.sum(dim=-1)
    return per_seq.mean()
