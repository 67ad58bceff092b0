# kata: gae
# why: the per-step discount gamma * lam * (1 - done) is built with torch.full((T,), ...) and no device=: on a GPU it meets the inputs on another device
# mistake: none
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    not_done = 1.0 - dones.to(rewards.dtype)
    carry_discount = torch.full((T,), gamma * lam, dtype=rewards.dtype) * not_done
    next_values = torch.cat([values[1:], values.new_zeros(1)])
    deltas = rewards + gamma * next_values * not_done - values
    advantages = torch.zeros_like(rewards)
    carry = 0.0
    for t in reversed(range(T)):
        carry = deltas[t] + carry_discount[t] * carry
        advantages[t] = carry
    returns = advantages + values
    return (advantages - advantages.mean()) / (advantages.std() + 1e-8), returns
