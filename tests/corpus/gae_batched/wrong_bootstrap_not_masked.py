# kata: gae-batched
# why: adds gamma * last_values at the last step without masking it by dones[T-1]
# mistake: bootstrap_not_masked
import torch


def compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    nd = 1.0 - dones.to(rewards.dtype)
    adv = torch.zeros_like(rewards)
    gae = torch.zeros_like(last_values)
    for t in reversed(range(T)):
        if t == T - 1:
            delta = rewards[t] + gamma * last_values - values[t]
        else:
            delta = rewards[t] + gamma * values[t + 1] * nd[t] - values[t]
        gae = delta + gamma * lam * nd[t] * gae
        adv[t] = gae
    return adv, adv + values
