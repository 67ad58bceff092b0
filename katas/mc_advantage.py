# kata: mc-advantage
"""Monte-Carlo returns and advantages over one trajectory.

Write `compute_mc_advantage(rewards, dones, values, gamma=0.99) -> (advantages, returns)`.

Inputs (all 1-D, length T >= 2, on the same device; float32 unless a case says float64):
    rewards[t]  reward received at step t
    dones[t]    True (or 1.0) if the episode ended at step t; bool or float 0./1.
    values[t]   the critic's V(s_t)

Contract:
    returns[t] = rewards[t] + gamma * (1 - dones[t]) * returns[t+1]    (returns[T] = 0: no bootstrap)
    advantages = normalise(returns - values)
    normalise(a) = (a - a.mean()) / (a.std() + 1e-8)    (torch's default, unbiased std)

    A done at step t means nothing after t flows back into t; step t still keeps its own
    reward. The returns you give back are the raw ones, not normalised.

Both outputs have shape [T] and the dtype and device of `rewards`. Do not modify the inputs.
Create new tensors with torch.zeros_like(rewards) (or device=rewards.device): the checker
runs on the GPU when there is one.

Run `kata check mc-advantage` to test; `kata hint mc-advantage` for a nudge.
"""
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    raise NotImplementedError("write compute_mc_advantage")
