# kata: mc-advantage
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    ended = dones.bool()
    running = torch.zeros_like(rewards[0])
    steps = []
    for t in range(rewards.shape[0] - 1, -1, -1):
        running = torch.where(ended[t], rewards[t], rewards[t] + gamma * running)
        steps.append(running)
    returns = torch.stack(steps[::-1])
    adv = returns - values
    mean, std = adv.mean(), torch.std(adv, correction=1)
    return (adv - mean) / (std + 1e-8), returns
