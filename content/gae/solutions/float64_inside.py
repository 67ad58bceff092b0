# kata: gae
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    r, v = rewards.double(), values.double()
    nd = (~dones.bool()).double()
    A = torch.zeros_like(r)
    gae, next_v = 0.0, 0.0
    for t in range(r.shape[0] - 1, -1, -1):
        delta = r[t] + gamma * next_v * nd[t] - v[t]
        gae = delta + gamma * lam * nd[t] * gae
        A[t] = gae
        next_v = v[t]
    ret = A + v
    adv = (A - A.mean()) / (A.std() + 1e-8)
    return adv.to(rewards.dtype), ret.to(rewards.dtype)
