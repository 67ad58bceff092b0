# kata: gae
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    not_done = 1.0 - dones.to(rewards.dtype)
    next_values = torch.cat([values[1:], values.new_zeros(1)])  # V after the last step is 0
    delta = rewards + gamma * next_values * not_done - values
    keep = gamma * lam * not_done
    M = torch.zeros(T, T, dtype=rewards.dtype, device=rewards.device)
    for t in range(T):
        M[t, t] = 1.0
        M[t, t + 1:] = torch.cumprod(keep[t:T - 1], dim=0)
    A = M @ delta
    returns = A + values
    return (A - A.mean()) / (A.std() + 1e-8), returns
