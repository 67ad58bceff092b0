# kata: gae-batched
# why: reuses the rewards tensor as the TD-error buffer (+= / -=), overwriting the caller's rewards
# mistake: rewards_modified_in_place
import torch


def compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    nd = 1.0 - dones.to(rewards.dtype)
    next_values = torch.cat([values[1:], last_values[None]], 0)
    deltas = rewards
    deltas += gamma * next_values * nd
    deltas -= values
    adv = torch.zeros_like(rewards)
    gae = torch.zeros_like(last_values)
    for t in reversed(range(T)):
        gae = deltas[t] + gamma * lam * nd[t] * gae
        adv[t] = gae
    return adv, adv + values
