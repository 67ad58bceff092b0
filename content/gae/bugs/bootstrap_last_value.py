# kata: gae
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    not_done = 1.0 - dones.to(rewards.dtype)

    # all TD errors at once: shift the values left by one step
    next_values = torch.cat([values[1:], values[-1:]])
    deltas = rewards + gamma * next_values * not_done - values

    # discounted sum of the deltas, backwards
    advantages = torch.zeros_like(rewards)
    running = torch.zeros_like(rewards[0])
    for t in range(len(rewards) - 1, -1, -1):
        running = deltas[t] + gamma * lam * not_done[t] * running
        advantages[t] = running

    returns = advantages + values
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    return advantages, returns
