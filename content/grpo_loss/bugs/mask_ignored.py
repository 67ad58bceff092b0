# kata: grpo-loss
import torch


def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs,
                   clip_epsilon=0.2, kl_beta=0.04, mask=None):
    # [G] -> [G, 1] when there is a token dim
    A = advantages.view(-1, *([1] * (new_log_probs.dim() - 1)))

    ratio = torch.exp(new_log_probs - old_log_probs)
    pg = torch.min(ratio * A, torch.clamp(ratio, 1.0 - clip_epsilon, 1.0 + clip_epsilon) * A)

    log_q = ref_log_probs - new_log_probs
    kl = torch.exp(log_q) - log_q - 1

    loss = kl_beta * kl - pg
    # mean over each completion's tokens, then over the group
    return loss.mean(dim=-1).mean()
