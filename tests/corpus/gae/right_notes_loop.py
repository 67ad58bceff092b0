# kata: gae
# why: the seed notes' GAE: a backward loop carrying the last advantage as a Python float via .item()
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    T = len(rewards)
    advantages = torch.zeros_like(rewards)
    last_advantage = 0.0
    for t in reversed(range(T)):
        next_val = values[t + 1].item() if (t + 1 < T) else 0.0
        delta = rewards[t] + gamma * next_val * (1.0 - float(dones[t])) - values[t].item()
        advantages[t] = delta + gamma * lam * (1.0 - float(dones[t])) * last_advantage
        last_advantage = advantages[t].item()
    returns = advantages + values
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    return advantages, returns
