# kata: gae-batched
# why: masks step t with dones[t+1] ("next state terminal") and never masks the bootstrap
# mistake: cut_one_step_late
import torch


def compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    nd = 1.0 - dones.to(rewards.dtype)
    adv = torch.zeros_like(rewards)
    gae = torch.zeros_like(last_values)
    for t in reversed(range(T)):
        if t == T - 1:
            next_value, keep = last_values, torch.ones_like(last_values)
        else:
            next_value, keep = values[t + 1], nd[t + 1]
        delta = rewards[t] + gamma * next_value * keep - values[t]
        gae = delta + gamma * lam * keep * gae
        adv[t] = gae
    return adv, adv + values
