# kata: gae
"""Generalised advantage estimation (GAE) over one trajectory.

Write `compute_gae(rewards, dones, values, gamma=0.99, lam=0.95) -> (advantages, returns)`.

Inputs (all 1-D, length T >= 2, on the same device; float32 unless a case says float64):
    rewards[t]  reward received at step t
    dones[t]    True (or 1.0) if the episode ended at step t; bool or float 0./1.
    values[t]   the critic's V(s_t)

Contract:
    next value:  V[t+1] for t < T-1; 0 after the last step (no bootstrap)
    delta[t]   = rewards[t] + gamma * V[t+1] * (1 - dones[t]) - values[t]
    A[t]       = delta[t] + gamma * lam * (1 - dones[t]) * A[t+1]     (A[T] = 0)
    returns    = A + values                      (from the *raw* A)
    advantages = (A - A.mean()) / (A.std() + 1e-8)   (torch's default, unbiased std)

    A done at step t means nothing after t flows back into t: both the next value and the
    carried advantage are cut. Step t still keeps its own reward.

Both outputs have shape [T] and the dtype and device of `rewards`. Do not modify the inputs.
Create new tensors with torch.zeros_like(rewards) (or device=rewards.device): the checker
runs on the GPU when there is one.

Run `kata check gae` to test; `kata hint gae` for a nudge.
"""
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    raise NotImplementedError("write compute_gae")
