# kata: mc-advantage
# why: normalises with the biased std (unbiased=False), not torch's default
# mistake: biased_std
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    not_done = 1.0 - dones.to(rewards.dtype)
    returns = torch.zeros_like(rewards)
    running = torch.zeros_like(rewards[0])
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * not_done[t] * running
        returns[t] = running
    adv = returns - values
    return (adv - adv.mean()) / (adv.std(unbiased=False) + 1e-8), returns
