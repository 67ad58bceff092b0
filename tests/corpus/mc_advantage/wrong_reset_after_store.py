# kata: mc-advantage
# why: resets the running return after storing returns[t], so dones[t] cuts step t-1 instead of step t
# mistake: cut_one_step_late
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    returns = torch.zeros_like(rewards)
    running = 0.0
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * running
        returns[t] = running
        if dones[t]:
            running = 0.0
    adv = returns - values
    return (adv - adv.mean()) / (adv.std() + 1e-8), returns
