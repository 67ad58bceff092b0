# kata: mc-advantage
# why: normalises the returns themselves and hands those back (and builds the advantages from them)
# mistake: returns_normalised
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    not_done = 1.0 - dones.to(rewards.dtype)
    returns = torch.zeros_like(rewards)
    running = torch.zeros_like(rewards[0])
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * not_done[t] * running
        returns[t] = running
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    adv = returns - values
    return (adv - adv.mean()) / (adv.std() + 1e-8), returns
