# kata: gae
# why: bootstraps the last step from values[-1] although the contract says the value after it is 0
# mistake: bootstrap_last_value
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    nd = 1.0 - dones.to(rewards.dtype)
    A = torch.zeros_like(rewards)
    gae = 0.0
    for t in reversed(range(T)):
        next_value = values[t + 1] if t + 1 < T else values[-1]
        delta = rewards[t] + gamma * next_value * nd[t] - values[t]
        gae = delta + gamma * lam * nd[t] * gae
        A[t] = gae
    returns = A + values
    return (A - A.mean()) / (A.std() + 1e-8), returns
