# kata: gae
# why: gamma and lam made into tensors with torch.tensor(...) (float32): float64 trajectories lose precision, as an RL library's GAE did
# mistake: gamma_float32
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    gamma, lam = torch.tensor(gamma), torch.tensor(lam)
    T = rewards.shape[0]
    nd = 1.0 - dones.to(rewards.dtype)
    A = torch.zeros_like(rewards)
    gae = torch.zeros_like(rewards[0])
    for t in reversed(range(T)):
        next_value = values[t + 1] if t + 1 < T else torch.zeros_like(values[0])
        delta = rewards[t] + gamma * next_value * nd[t] - values[t]
        gae = delta + gamma * lam * nd[t] * gae
        A[t] = gae
    returns = A + values
    return (A - A.mean()) / (A.std() + 1e-8), returns
