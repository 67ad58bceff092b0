# kata: gae-batched
import torch


def compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95):
    ended = dones.bool()
    zero = torch.zeros_like(last_values)
    next_value, gae = last_values, zero
    rows = []
    for t in range(rewards.shape[0] - 1, -1, -1):
        delta = rewards[t] + gamma * torch.where(ended[t], zero, next_value) - values[t]
        gae = delta + gamma * lam * torch.where(ended[t], zero, gae)
        rows.append(gae)
        next_value = values[t]
    adv = torch.stack(rows[::-1])
    return adv, adv + values
