# kata: gae
# why: carries the advantage with lam alone (A = delta + lam * A_next), dropping gamma
# mistake: gamma_missing_in_carry
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    nd = 1.0 - dones.to(rewards.dtype)
    A = torch.zeros_like(rewards)
    gae = 0.0
    for t in reversed(range(T)):
        next_value = values[t + 1] if t + 1 < T else 0.0
        delta = rewards[t] + gamma * next_value * nd[t] - values[t]
        gae = delta + lam * nd[t] * gae
        A[t] = gae
    returns = A + values
    return (A - A.mean()) / (A.std() + 1e-8), returns
