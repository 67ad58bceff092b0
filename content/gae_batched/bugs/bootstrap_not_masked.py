# kata: gae-batched
import torch


def compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95):
    # rewards, dones, values: [T, N]; last_values: [N]
    T, N = rewards.shape
    not_done = 1.0 - dones.to(rewards.dtype)
    advantages = torch.zeros_like(rewards)
    gae = torch.zeros_like(last_values)
    for t in reversed(range(T)):
        if t == T - 1:
            # bootstrap the unfinished rollout with the critic's estimate
            delta = rewards[t] + gamma * last_values - values[t]
        else:
            delta = rewards[t] + gamma * not_done[t] * values[t + 1] - values[t]
        gae = delta + gamma * lam * not_done[t] * gae
        advantages[t] = gae
    returns = advantages + values
    return advantages, returns
