# kata: gae
# why: normalises with std + 1e-9 instead of 1e-8: invisible unless the advantages barely differ
# mistake: epsilon_1e9
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
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
    return (A - A.mean()) / (A.std() + 1e-9), returns
