# kata: gae
# why: Python floats, one torch.tensor(values) on the CPU, then .to(rewards.device): right on a GPU
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    r, d, v = rewards.tolist(), dones.float().tolist(), values.tolist()
    T = len(r)
    adv, carry = [0.0] * T, 0.0
    for t in reversed(range(T)):
        next_value = v[t + 1] if t + 1 < T else 0.0
        delta = r[t] + gamma * next_value * (1 - d[t]) - v[t]
        carry = delta + gamma * lam * (1 - d[t]) * carry
        adv[t] = carry
    advantages = torch.tensor(adv, dtype=rewards.dtype).to(rewards.device)
    returns = advantages + values
    return (advantages - advantages.mean()) / (advantages.std() + 1e-8), returns
