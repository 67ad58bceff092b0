# kata: gae
# why: two mistakes at once, dones ignored and a biased std: no single known mistake explains it
# mistake: none
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    A = torch.zeros_like(rewards)
    gae = torch.zeros_like(rewards[0])
    for t in reversed(range(T)):
        next_value = values[t + 1] if t + 1 < T else torch.zeros_like(values[0])
        gae = rewards[t] + gamma * next_value - values[t] + gamma * lam * gae
        A[t] = gae
    returns = A + values
    return (A - A.mean()) / (A.std(unbiased=False) + 1e-8), returns
