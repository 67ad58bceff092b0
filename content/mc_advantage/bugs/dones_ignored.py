# kata: mc-advantage
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    T = rewards.shape[0]
    # discount matrix: D[t, k] = gamma ** (k - t) for k >= t, else 0
    idx = torch.arange(T, device=rewards.device)
    power = (idx[None, :] - idx[:, None]).to(rewards.dtype)
    D = torch.where(power >= 0, gamma ** power, torch.zeros_like(power))
    returns = D @ rewards

    adv = returns - values
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    return adv, returns
