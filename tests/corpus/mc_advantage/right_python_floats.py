# kata: mc-advantage
# why: the recursion on Python floats (float64) from .tolist(), then one tensor built on the inputs' device
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    r = rewards.tolist()
    d = [float(x) for x in dones.tolist()]
    out = [0.0] * len(r)
    g = 0.0
    for t in range(len(r) - 1, -1, -1):
        g = r[t] + gamma * (1.0 - d[t]) * g
        out[t] = g
    returns = torch.tensor(out, dtype=rewards.dtype, device=rewards.device)
    adv = returns - values
    adv = (adv - adv.mean()) / (adv.std(unbiased=True) + 1e-8)
    return adv, returns
