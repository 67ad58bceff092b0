# kata: cosine-schedule
# why: every phase spelled out, warmup == total handled by its own branch (max_lr there, the warmup's end), float() on the way out
from math import cos, pi


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    W, T = warmup_steps, total_steps
    if step > T:
        return float(min_lr)
    if step < W:
        return float(step * max_lr / W)
    if W == T:
        return float(max_lr)
    t = (step - W) / (T - W)
    return float(min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * t)))
