# kata: gae-batched
import torch


def compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    not_done = 1.0 - dones.float().to(rewards.dtype)                   # [T, N]
    v_ext = torch.cat([values, last_values.unsqueeze(0)], dim=0)      # [T+1, N]
    deltas = rewards + gamma * v_ext[1:] * not_done - v_ext[:-1]      # [T, N]
    adv = torch.zeros_like(rewards)
    running = torch.zeros_like(last_values)
    for t in reversed(range(T)):
        running = deltas[t] + gamma * lam * not_done[t] * running
        adv[t] = running
    return adv, adv + values
