# kata: rloo-loss
# why: loops over the prompts and subtracts the group's mean reward, the sample's own included (GRPO's baseline)
# mistake: grpo_mean_baseline
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    N = rewards.shape[0]
    adv = torch.zeros(N, dtype=rewards.dtype, device=rewards.device)
    for start in range(0, N, k):
        grp = rewards[start:start + k].detach()
        adv[start:start + k] = grp - grp.mean()
    w = torch.ones_like(log_probs) if mask is None else mask.to(log_probs.dtype)
    total = 0.0
    for i in range(N):
        total = total - adv[i].to(log_probs.dtype) * (log_probs[i] * w[i]).sum()
    return total / N, adv
