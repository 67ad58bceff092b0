# kata: rloo-loss
# why: TRL's old RLOOTrainer layout, rlhf_reward.reshape(rloo_k, -1): completions of a prompt taken with a stride
# mistake: strided_groups
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    rlhf_reward = rewards.reshape(k, -1)  # (k, P)
    if k > 1:
        baseline = (rlhf_reward.sum(0) - rlhf_reward) / (k - 1)
        advantages = (rlhf_reward - baseline).flatten()
    else:
        advantages = torch.zeros_like(rewards)
    m = torch.ones_like(log_probs) if mask is None else mask.to(log_probs.dtype)
    return -(advantages.to(log_probs.dtype) * (log_probs * m).sum(1)).mean(), advantages
