# kata: gae
import numpy as np
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    r = rewards.detach().cpu().numpy().astype(np.float64)
    d = dones.detach().cpu().numpy().astype(np.float64)
    v = values.detach().cpu().numpy().astype(np.float64)

    T = len(r)
    adv = np.zeros(T)
    last_gae = 0.0
    for t in reversed(range(T)):
        next_v = v[t + 1] if t + 1 < T else 0.0
        mask = 1.0 - d[t]
        delta = r[t] + gamma * next_v * mask - v[t]
        last_gae = delta + gamma * lam * mask * last_gae
        adv[t] = last_gae

    ret = adv + v
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)

    def to_torch(a):
        return torch.from_numpy(a).to(device=rewards.device, dtype=rewards.dtype)

    return to_torch(adv), to_torch(ret)
