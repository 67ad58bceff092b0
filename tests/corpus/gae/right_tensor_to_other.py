# kata: gae
# why: the recursion in a float64 CPU tensor, then .to(rewards): rewards' device and dtype at once
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    r = rewards.detach().cpu().double()
    v = values.detach().cpu().double()
    keep = 1.0 - dones.detach().cpu().double()
    adv = torch.zeros(T, dtype=torch.float64)
    carry = 0.0
    for t in reversed(range(T)):
        next_value = v[t + 1] if t + 1 < T else 0.0
        carry = r[t] + gamma * next_value * keep[t] - v[t] + gamma * lam * keep[t] * carry
        adv[t] = carry
    advantages = adv.to(rewards)
    returns = advantages + values
    return (advantages - advantages.mean()) / (advantages.std() + 1e-8), returns
