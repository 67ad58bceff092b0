# kata: gae
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    not_done = 1.0 - dones.to(rewards.dtype)
    advantages = torch.zeros_like(rewards)
    gae = torch.zeros_like(rewards[0])
    for t in reversed(range(T)):
        # value of the next state; 0 after the last step
        next_value = values[t + 1] if t + 1 < T else torch.zeros_like(values[0])
        # TD error
        delta = rewards[t] + gamma * next_value * not_done[t] - values[t]
        # GAE recursion
        gae = delta + gamma * lam * gae
        advantages[t] = gae
    returns = advantages + values
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    return advantages, returns
