# kata: gae
# why: dones are never read: values and advantages flow across episode boundaries
# mistake: dones_ignored
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    A = torch.zeros_like(rewards)
    gae = 0.0
    for t in reversed(range(T)):
        next_value = values[t + 1] if t + 1 < T else 0.0
        delta = rewards[t] + gamma * next_value - values[t]
        gae = delta + gamma * lam * gae
        A[t] = gae
    returns = A + values
    return (A - A.mean()) / (A.std() + 1e-8), returns
