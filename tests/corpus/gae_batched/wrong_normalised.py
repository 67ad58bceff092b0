# kata: gae-batched
# why: normalises the advantages (habit from PPO code) though this kata returns the raw A
# mistake: normalised
import torch


def compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    nd = 1.0 - dones.to(rewards.dtype)
    adv = torch.zeros_like(rewards)
    gae = torch.zeros_like(last_values)
    next_value = last_values
    for t in reversed(range(T)):
        delta = rewards[t] + gamma * next_value * nd[t] - values[t]
        gae = delta + gamma * lam * nd[t] * gae
        adv[t] = gae
        next_value = values[t]
    returns = adv + values
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    return adv, returns
