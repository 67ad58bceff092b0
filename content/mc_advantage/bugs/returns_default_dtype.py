# kata: mc-advantage
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    T = rewards.shape[0]
    returns = torch.zeros(T)
    g = 0.0
    for t in reversed(range(T)):
        g = rewards[t] + gamma * g * (1 - float(dones[t]))
        returns[t] = g
    advantages = returns - values
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    return advantages, returns
