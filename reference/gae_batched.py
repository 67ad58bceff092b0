"""Generalised Advantage Estimation over N parallel environments.

Schulman et al., "High-Dimensional Continuous Control Using Generalized Advantage Estimation"
(2016), eq. 16, vectorised over envs as in PPO's rollout buffer (Schulman et al. 2017, eq. 11–12):
delta_t = r_t + gamma * (1 - done_t) * V_{t+1} - V_t,  A_t = delta_t + gamma * lam * (1 - done_t) * A_{t+1},
with V_T = last_values (the bootstrap), cut like any other next value by done_{T-1}.
"""
import torch


def compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95):
    """rewards, dones, values: [T, N]; last_values: [N]. Returns (A, A + values), both [T, N]."""
    assert rewards.dim() == 2, f"expected [T, N] rollouts, got shape {tuple(rewards.shape)}"
    T, N = rewards.shape
    assert last_values.shape == (N,), f"last_values should be [{N}], got {tuple(last_values.shape)}"
    not_done = 1.0 - dones.to(rewards.dtype)  # (T, N); dones may be bool or 0./1.
    advantages = torch.zeros_like(rewards)
    next_value = last_values.to(rewards.dtype)  # (N,) V of the state after the last step
    gae = torch.zeros_like(rewards[0])  # (N,)
    for t in reversed(range(T)):
        delta = rewards[t] + gamma * not_done[t] * next_value - values[t]
        gae = delta + gamma * lam * not_done[t] * gae  # a done at t cuts everything after t
        advantages[t] = gae
        next_value = values[t]
    return advantages, advantages + values
