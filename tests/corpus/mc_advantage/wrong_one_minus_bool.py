# kata: mc-advantage
# why: 1 - dones on a bool tensor raises in torch: the dones are never converted to the rewards' dtype
# mistake: none
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    returns = torch.zeros_like(rewards)
    running = torch.zeros_like(rewards[0])
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * (1 - dones[t]) * running
        returns[t] = running
    adv = returns - values
    return (adv - adv.mean()) / (adv.std() + 1e-8), returns
