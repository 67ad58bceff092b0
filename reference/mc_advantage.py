"""Monte-Carlo returns and normalised advantages over one trajectory.

Sutton & Barto, "Reinforcement Learning: An Introduction" (2nd ed., 2018), eq. 3.9:
G_t = R_{t+1} + gamma * G_{t+1}, cut at episode ends: returns[t] = r[t] + gamma * (1 - done[t]) * returns[t+1].
The advantage is G_t - V(s_t) (REINFORCE with a baseline, ch. 13.4), normalised as PPO implementations do.
"""
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    """rewards, dones, values: [T]. Returns (normalised advantages, raw returns)."""
    assert rewards.dim() == 1, f"expected a 1-D trajectory, got shape {tuple(rewards.shape)}"
    T = rewards.shape[0]
    not_done = 1.0 - dones.to(rewards.dtype)  # dones may be bool or 0./1.
    returns = torch.zeros_like(rewards)
    running = torch.zeros_like(rewards[0])  # nothing after the last step: no bootstrap
    for t in reversed(range(T)):
        running = rewards[t] + gamma * not_done[t] * running  # a done at t cuts what comes after t
        returns[t] = running
    adv = returns - values
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)  # unbiased std, as torch's default
    return adv, returns
