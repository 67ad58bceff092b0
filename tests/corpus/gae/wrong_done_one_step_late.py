# kata: gae
# why: masks with dones[t+1] ("is the next state terminal?"), one step late under this contract
# mistake: cut_one_step_late
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    d = dones.to(rewards.dtype)
    A = torch.zeros_like(rewards)
    gae = 0.0
    for t in reversed(range(T)):
        if t + 1 < T:
            next_value, next_not_done = values[t + 1], 1.0 - d[t + 1]
        else:
            next_value, next_not_done = 0.0, 1.0
        delta = rewards[t] + gamma * next_value * next_not_done - values[t]
        gae = delta + gamma * lam * next_not_done * gae
        A[t] = gae
    returns = A + values
    return (A - A.mean()) / (A.std() + 1e-8), returns
