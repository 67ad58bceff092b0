# kata: cosine-schedule
import math


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    if step < warmup_steps:
        return step / warmup_steps * max_lr
    if step > total_steps:
        return min_lr
    n_decay = total_steps - warmup_steps + 1
    frac = (step - warmup_steps) / n_decay
    return min_lr + 0.5 * (max_lr - min_lr) * (1 + math.cos(math.pi * frac))
