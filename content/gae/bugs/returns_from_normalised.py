# kata: gae
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    r = rewards.tolist()
    d = [float(x) for x in dones.tolist()]
    v = values.tolist()

    adv, gae = [], 0.0
    for t in range(len(r) - 1, -1, -1):
        nv = v[t + 1] if t + 1 < len(r) else 0.0
        delta = r[t] + gamma * nv * (1 - d[t]) - v[t]
        gae = delta + gamma * lam * (1 - d[t]) * gae
        adv.append(gae)
    adv = torch.tensor(adv[::-1], dtype=rewards.dtype, device=rewards.device)

    # normalise for PPO
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    returns = adv + values
    return adv, returns
