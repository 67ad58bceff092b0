# kata: mc-advantage
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    T = rewards.shape[0]
    keep = gamma * (1.0 - dones.to(rewards.dtype))  # [T] what survives one step back
    M = torch.zeros(T, T, dtype=rewards.dtype, device=rewards.device)
    for t in range(T):
        M[t, t] = 1.0
        M[t, t + 1:] = torch.cumprod(keep[t:T - 1], dim=0)
    returns = M @ rewards
    a = returns - values
    return (a - a.mean()) / (a.std() + 1e-8), returns
