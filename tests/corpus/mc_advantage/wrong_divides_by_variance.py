# kata: mc-advantage
# why: divides by the variance instead of the standard deviation: no known mistake models it
# mistake: none
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    not_done = 1.0 - dones.to(rewards.dtype)
    returns = torch.zeros_like(rewards)
    running = torch.zeros_like(rewards[0])
    for t in reversed(range(rewards.shape[0])):
        running = rewards[t] + gamma * not_done[t] * running
        returns[t] = running
    adv = returns - values
    return (adv - adv.mean()) / (adv.var() + 1e-8), returns
