# kata: grpo-loss
import torch


def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs,
                   clip_epsilon=0.2, kl_beta=0.04, mask=None):
    G = new_log_probs.shape[0]
    losses = []
    for i in range(G):
        new, old, ref = new_log_probs[i], old_log_probs[i], ref_log_probs[i]
        if mask is not None:
            keep = mask[i].bool()
            new, old, ref = new[keep], old[keep], ref[keep]
        a = advantages[i]

        ratio = torch.exp(new - old)
        clipped_ratio = torch.clamp(ratio, 1 - clip_epsilon, 1 + clip_epsilon)
        objective = torch.max(ratio * a, clipped_ratio * a)

        kl = torch.exp(ref - new) - (ref - new) - 1
        losses.append((kl_beta * kl - objective).mean())
    return torch.stack(losses).mean()
