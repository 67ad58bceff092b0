# kata: gae-batched
# why: treats the value after the last step as 0, as in the single-trajectory kata, ignoring last_values
# mistake: no_bootstrap
import torch


def compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    nd = 1.0 - dones.to(rewards.dtype)
    adv = torch.zeros_like(rewards)
    gae = torch.zeros_like(last_values)
    next_value = torch.zeros_like(last_values)
    for t in reversed(range(T)):
        delta = rewards[t] + gamma * next_value * nd[t] - values[t]
        gae = delta + gamma * lam * nd[t] * gae
        adv[t] = gae
        next_value = values[t]
    return adv, adv + values
