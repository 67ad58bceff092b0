# kata: gae-batched
import torch


def compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95):
    T, N = rewards.shape
    r, d, v = rewards.tolist(), dones.tolist(), values.tolist()
    adv = [[0.0] * N for _ in range(T)]
    # each env is an independent trajectory
    for n in range(N):
        gae = 0.0
        for t in reversed(range(T)):
            next_v = v[t + 1][n] if t + 1 < T else 0.0
            keep = 0.0 if d[t][n] else 1.0
            delta = r[t][n] + gamma * next_v * keep - v[t][n]
            gae = delta + gamma * lam * keep * gae
            adv[t][n] = gae
    A = torch.tensor(adv, dtype=rewards.dtype, device=rewards.device)
    return A, A + values
