# kata: mc-advantage
# why: torch.zeros(T) follows neither the inputs' device nor their dtype (breaks on the GPU and in float64)
# mistake: returns_default_dtype
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    T = len(rewards)
    returns = torch.zeros(T)
    running = 0.0
    for t in reversed(range(T)):
        running = rewards[t] + gamma * (1.0 - float(dones[t])) * running
        returns[t] = running
    adv = returns - values
    return (adv - adv.mean()) / (adv.std() + 1e-8), returns
