# kata: gae
# why: Python floats in a list, one torch.tensor(..., dtype=, device=) at the end
import torch
def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    r, d, v = rewards.tolist(), [float(x) for x in dones.tolist()], values.tolist()
    out, gae = [], 0.0
    for t in range(len(r) - 1, -1, -1):
        nv = v[t + 1] if t + 1 < len(r) else 0.0
        delta = r[t] + gamma * nv * (1 - d[t]) - v[t]
        gae = delta + gamma * lam * (1 - d[t]) * gae
        out.append(gae)
    adv = torch.tensor(out[::-1], dtype=rewards.dtype, device=rewards.device)
    ret = adv + values
    return (adv - adv.mean()) / (adv.std() + 1e-8), ret
