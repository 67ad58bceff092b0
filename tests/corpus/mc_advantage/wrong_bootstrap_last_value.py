# kata: mc-advantage
# why: starts the backward sum from values[-1] (a bootstrap) although nothing comes after the last step
# mistake: bootstrap_last_value
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    not_done = 1.0 - dones.to(rewards.dtype)
    returns = torch.zeros_like(rewards)
    running = values[-1]
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * not_done[t] * running
        returns[t] = running
    adv = returns - values
    return (adv - adv.mean()) / (adv.std() + 1e-8), returns
