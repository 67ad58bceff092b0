# kata: gae-batched
# why: builds the keep-mask with ~dones, which only works for bool dones (raises on 0./1. floats)
# mistake: none
import torch


def compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    keep = (~dones).to(rewards.dtype)
    adv = torch.zeros_like(rewards)
    gae = torch.zeros_like(last_values)
    next_value = last_values
    for t in reversed(range(T)):
        delta = rewards[t] + gamma * next_value * keep[t] - values[t]
        gae = delta + gamma * lam * keep[t] * gae
        adv[t] = gae
        next_value = values[t]
    return adv, adv + values
