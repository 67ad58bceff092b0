# kata: cosine-schedule
# why: a SequentialLR-like chain written by hand, with LinearLR's default start_factor = 1/3 for the warmup
# mistake: warmup_start_factor
import math

START_FACTOR = 1.0 / 3


def linear_warmup(step, warmup_steps):
    return START_FACTOR + (1.0 - START_FACTOR) * step / warmup_steps


def cosine_annealing(t, t_max, eta_min_ratio):
    return eta_min_ratio + (1 - eta_min_ratio) * (1 + math.cos(math.pi * t / t_max)) / 2


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    if step < warmup_steps:
        return max_lr * linear_warmup(step, warmup_steps)
    t, t_max = step - warmup_steps, total_steps - warmup_steps
    if t >= t_max:
        return min_lr
    return max_lr * cosine_annealing(t, t_max, min_lr / max_lr)
