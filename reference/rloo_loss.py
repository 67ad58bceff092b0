"""REINFORCE with the leave-one-out baseline (RLOO).

Kool, van Hoof & Welling, "Buy 4 REINFORCE Samples, Get a Baseline for Free!" (2019); Ahmadian et al.,
"Back to Basics: Revisiting REINFORCE Style Optimization for Learning from Human Feedback in LLMs" (2024),
eq. 6: with k completions y_1..y_k of one prompt,
    A_i = r_i - 1/(k - 1) * sum_{j != i} r_j            (= k/(k-1) * (r_i - mean_j r_j))
    grad J = 1/k * sum_i A_i * grad log pi(y_i | x)
The whole completion is one action: log pi(y_i|x) is the sum of its tokens' log-probs. The baseline of a
sample never uses its own reward, so it is unbiased; with k = 1 there is no other sample and A = 0.
"""
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    """log_probs [N, T] (N = P·k, prompt g's completions are rows g·k .. g·k+k-1); rewards [N]; mask [N, T]
    or None. Returns (loss 0-dim, advantages [N] without grad)."""
    N, T = log_probs.shape
    assert rewards.shape == (N,) and N % k == 0, f"rewards should be [{N}] with N divisible by k = {k}"
    r = rewards.detach().view(-1, k)  # (P, k) consecutive rows are one prompt's completions
    if k > 1:
        baseline = (r.sum(dim=1, keepdim=True) - r) / (k - 1)  # (P, k) the mean of the other k - 1 rewards
        advantages = (r - baseline).reshape(N)  # (N,)
    else:
        advantages = torch.zeros_like(rewards).detach()  # no other sample, no baseline
    m = torch.ones_like(log_probs) if mask is None else mask.to(log_probs.dtype)
    seq_log_prob = torch.where(m > 0, log_probs, torch.zeros_like(log_probs)).sum(dim=-1)  # (N,) log pi(y_i|x)
    loss = -(advantages.to(log_probs.dtype) * seq_log_prob).mean()
    return loss, advantages
