# kata: gae-batched
# why: the running advantage starts as torch.zeros(N): a CPU vector that meets the [N] rows of the inputs on a GPU
# mistake: none
import torch


def compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95):
    T, N = rewards.shape
    not_done = 1.0 - dones.to(rewards.dtype)
    advantages = torch.zeros_like(rewards)
    carry = torch.zeros(N, dtype=rewards.dtype)
    next_value = last_values.to(rewards.dtype)
    for t in reversed(range(T)):
        delta = rewards[t] + gamma * not_done[t] * next_value - values[t]
        carry = delta + gamma * lam * not_done[t] * carry
        advantages[t] = carry
        next_value = values[t]
    return advantages, advantages + values
