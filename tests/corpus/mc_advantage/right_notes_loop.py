# kata: mc-advantage
# why: the seed notes' loop: resetting the running return *before* adding rewards[t] is exactly the contract
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    T = len(rewards)
    returns = torch.zeros_like(rewards)
    running_ret = 0.0
    for t in reversed(range(T)):
        if dones[t]:
            running_ret = 0.0
        running_ret = rewards[t] + gamma * running_ret
        returns[t] = running_ret
    adv = returns - values
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    return adv, returns
