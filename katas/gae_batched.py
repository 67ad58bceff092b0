# kata: gae-batched
"""Generalised advantage estimation (GAE) over N parallel environments.

Write `compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95)
-> (advantages, returns)`.

Inputs (time first, on the same device; float32 unless a case says float64):
    rewards[t, n]   reward env n received at step t                 [T, N]  (T >= 1, N >= 1)
    dones[t, n]     True (or 1.0) if env n's episode ended at step t; bool or float 0./1.   [T, N]
    values[t, n]    the critic's V(s_t) for env n                   [T, N]
    last_values[n]  V of the state after the last step (the bootstrap)   [N]

Contract (for every env n at once):
    next value:  V[t+1] = values[t+1] for t < T-1, and last_values for t = T-1
    delta[t]   = rewards[t] + gamma * V[t+1] * (1 - dones[t]) - values[t]
    A[t]       = delta[t] + gamma * lam * (1 - dones[t]) * A[t+1]     (A[T] = 0)
    advantages = A            (no normalisation here)
    returns    = A + values

    A done at step t means nothing after t flows back into t: both the next value and the
    carried advantage are cut. That includes the bootstrap: a done at the last step masks
    last_values. Step t still keeps its own reward.

Both outputs have shape [T, N] and the dtype and device of `rewards`. Do not modify the inputs.
Create new tensors with torch.zeros_like(rewards) (or device=rewards.device): the checker
runs on the GPU when there is one.

Run `kata check gae-batched` to test; `kata hint gae-batched` for a nudge.
"""
import torch


def compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95):
    raise NotImplementedError("write compute_gae_batched")
