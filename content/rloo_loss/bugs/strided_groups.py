# kata: rloo-loss
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    rlhf_reward = rewards.reshape(k, -1)
    if k > 1:
        baseline = (rlhf_reward.sum(0) - rlhf_reward) / (k - 1)
        advantages = (rlhf_reward - baseline).flatten()
    else:
        advantages = torch.zeros_like(rewards)

    if mask is None:
        seq_logprobs = log_probs.sum(dim=1)
    else:
        seq_logprobs = (log_probs * mask.to(log_probs.dtype)).sum(dim=1)
    loss = -(advantages.to(log_probs.dtype) * seq_logprobs).mean()
    return loss, advantages
