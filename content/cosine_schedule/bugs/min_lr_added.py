# kata: cosine-schedule
from math import cos, pi


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    if step < warmup_steps:
        return max_lr * step / warmup_steps
    if step >= total_steps:
        return min_lr
    t = (step - warmup_steps) / (total_steps - warmup_steps)
    return min_lr + max_lr * (1 + cos(pi * t)) / 2
