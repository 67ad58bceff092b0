# kata: gae-batched
import torch


def compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95):
    ended = dones.bool()  # [T, N]
    zero = torch.zeros_like(last_values)
    next_value = last_values
    gae = zero
    rows = []
    for t in range(rewards.shape[0] - 1, -1, -1):
        # no next state after a terminal step
        v_next = torch.where(ended[t], zero, next_value)
        delta = rewards[t] + gamma * v_next - values[t]
        gae = delta + gamma * lam * gae
        rows.append(gae)
        next_value = values[t]
    advantages = torch.stack(rows[::-1])  # [T, N]
    return advantages, advantages + values
