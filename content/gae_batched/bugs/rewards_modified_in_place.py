# kata: gae-batched
import torch


def compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    nd = 1.0 - dones.to(rewards.dtype)  # [T, N]
    next_values = torch.cat([values[1:], last_values.unsqueeze(0)], dim=0)  # [T, N]

    # TD errors for every step and env
    deltas = rewards
    deltas += gamma * next_values * nd - values

    adv = torch.zeros_like(deltas)
    gae = torch.zeros_like(last_values)
    for t in reversed(range(T)):
        gae = deltas[t] + gamma * lam * nd[t] * gae
        adv[t] = gae
    return adv, adv + values
