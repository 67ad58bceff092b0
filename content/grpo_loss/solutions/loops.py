# kata: grpo-loss
import torch


def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs,
                   clip_epsilon=0.2, kl_beta=0.04, mask=None):
    old, new, ref = old_log_probs.double(), new_log_probs.double(), ref_log_probs.double()
    adv = advantages.double()
    G = new.shape[0]
    completion_losses = []
    for g in range(G):
        if new.dim() == 1:
            tokens = [(old[g], new[g], ref[g])]
        else:
            tokens = [(old[g, t], new[g, t], ref[g, t]) for t in range(new.shape[1])
                      if mask is None or bool(mask[g, t])]
        token_losses = []
        for o, n, r in tokens:
            ratio = torch.exp(n - o)
            surrogate = torch.min(ratio * adv[g], torch.clamp(ratio, 1 - clip_epsilon, 1 + clip_epsilon) * adv[g])
            kl = torch.exp(r - n) - (r - n) - 1
            token_losses.append(-(surrogate - kl_beta * kl))
        completion_losses.append(torch.stack(token_losses).mean())
    return torch.stack(completion_losses).mean().to(new_log_probs.dtype)
