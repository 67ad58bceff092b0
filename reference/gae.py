"""Generalised Advantage Estimation over one trajectory.

Schulman et al., "High-Dimensional Continuous Control Using Generalized Advantage Estimation"
(2016), eq. 16: A_t = sum_l (gamma * lam)^l * delta_{t+l}, computed backwards as
A_t = delta_t + gamma * lam * (1 - done_t) * A_{t+1}.
"""
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    """rewards, dones, values: [T]. Returns (normalised advantages, returns = raw A + values)."""
    assert rewards.dim() == 1, f"expected a 1-D trajectory, got shape {tuple(rewards.shape)}"
    T = rewards.shape[0]
    not_done = 1.0 - dones.to(rewards.dtype)  # dones may be bool or 0./1.
    advantages = torch.zeros_like(rewards)
    next_value = torch.zeros_like(rewards[0])  # nothing after the last step: no bootstrap
    gae = torch.zeros_like(rewards[0])
    for t in reversed(range(T)):
        delta = rewards[t] + gamma * next_value * not_done[t] - values[t]
        gae = delta + gamma * lam * not_done[t] * gae  # a done at t cuts everything after t
        advantages[t] = gae
        next_value = values[t]
    returns = advantages + values  # from the raw advantages, before normalising
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    return advantages, returns
