# kata: mc-advantage
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    T = len(rewards)
    returns = torch.zeros_like(rewards)
    running_ret = 0.0
    for t in reversed(range(T)):
        running_ret = rewards[t] + gamma * running_ret
        returns[t] = running_ret
        # episode boundary: start a fresh return
        if dones[t]:
            running_ret = 0.0
    adv = returns - values
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    return adv, returns
