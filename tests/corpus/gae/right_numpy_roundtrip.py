# kata: gae
# why: moves to NumPy, loops there, and comes back on the inputs' device and dtype
import numpy as np
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    r = rewards.detach().cpu().numpy().astype(np.float64)
    d = dones.detach().cpu().numpy().astype(np.float64)
    v = values.detach().cpu().numpy().astype(np.float64)
    A = np.zeros_like(r)
    carry = 0.0
    for t in reversed(range(len(r))):
        v_next = v[t + 1] if t + 1 < len(r) else 0.0
        carry = r[t] + gamma * v_next * (1 - d[t]) - v[t] + gamma * lam * (1 - d[t]) * carry
        A[t] = carry
    ret = A + v
    adv = (A - A.mean()) / (A.std(ddof=1) + 1e-8)
    as_torch = lambda a: torch.from_numpy(a).to(device=rewards.device, dtype=rewards.dtype)
    return as_torch(adv), as_torch(ret)
