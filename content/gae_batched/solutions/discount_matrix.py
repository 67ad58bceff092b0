# kata: gae-batched
import torch


def compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95):
    T, N = rewards.shape
    nd = 1.0 - dones.to(rewards.dtype)
    next_values = torch.cat([values[1:], last_values[None]], 0)
    delta = rewards + gamma * next_values * nd - values               # [T, N]
    keep = (gamma * lam * nd).T                                       # [N, T]
    M = torch.zeros(N, T, T, dtype=rewards.dtype, device=rewards.device)
    for t in range(T):
        M[:, t, t] = 1.0
        if t + 1 < T:
            M[:, t, t + 1:] = torch.cumprod(keep[:, t:T - 1], dim=1)
    A = torch.einsum("ntk,kn->tn", M, delta)
    return A, A + values
