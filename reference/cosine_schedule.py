"""The learning rate of one optimiser step under linear warmup and half-cosine decay.

Loshchilov & Hutter, "SGDR: Stochastic Gradient Descent with Warm Restarts" (ICLR 2017), eq. 5, one cycle without
restarts, after a linear warmup (Goyal et al. 2017, "Accurate, Large Minibatch SGD", §2.2). The form is
transformers' `get_cosine_schedule_with_warmup` (num_cycles 0.5) and `get_cosine_with_min_lr_schedule_with_warmup`
times max_lr, and Stanford CS336's `get_lr_cosine_schedule`:

    step < W:        max_lr · step / W                                   (from 0: step 0 gives 0)
    W ≤ step ≤ T:    min_lr + (max_lr − min_lr) · ½ · (1 + cos(π · p)),  p = (step − W) / (T − W)
    step > T:        min_lr                                              (held, as CS336 and nanoGPT)

At W = T the decay is a single step: transformers' `max(1, T − W)` guard gives p = 0 there, so max_lr.
"""
import math


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    """step, warmup_steps, total_steps ints (0 ≤ W ≤ T, T ≥ 1); 0 ≤ min_lr ≤ max_lr. Returns a Python float."""
    assert 0 <= warmup_steps <= total_steps and total_steps >= 1, f"need 0 <= W <= T, T >= 1: {warmup_steps}, {total_steps}"
    assert step >= 0 and 0 <= min_lr <= max_lr, f"step {step}, min_lr {min_lr}, max_lr {max_lr}"
    if step < warmup_steps:
        return max_lr * step / warmup_steps  # linear from 0
    if step > total_steps:
        return float(min_lr)  # held after the schedule ends
    progress = (step - warmup_steps) / max(1, total_steps - warmup_steps)  # in [0, 1]
    return min_lr + (max_lr - min_lr) * 0.5 * (1.0 + math.cos(math.pi * progress))
