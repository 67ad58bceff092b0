# kata: mc-advantage
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    ended = dones.bool()
    G = torch.zeros_like(rewards[0])
    out = []
    for t in range(rewards.shape[0] - 1, -1, -1):
        # a done at t: the return is just this step's reward
        G = torch.where(ended[t], rewards[t], rewards[t] + gamma * G)
        out.append(G)
    returns = torch.stack(out[::-1])

    adv = returns - values
    mean = adv.mean()
    std = ((adv - mean) ** 2).mean().sqrt()
    adv = (adv - mean) / (std + 1e-8)
    return adv, returns
