# kata: mc-advantage
# why: dones are never read: returns flow across episode boundaries
# mistake: dones_ignored
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    returns = torch.zeros_like(rewards)
    running = 0.0
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * running
        returns[t] = running
    adv = returns - values
    return (adv - adv.mean()) / (adv.std() + 1e-8), returns
