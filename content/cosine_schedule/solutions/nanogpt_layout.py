# kata: cosine-schedule
import math


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    # 1) linear warmup from 0
    if step < warmup_steps:
        return max_lr * step / warmup_steps
    # 2) at and after the end: the floor (also covers warmup_steps == total_steps)
    if step >= total_steps:
        return min_lr
    # 3) in between: cosine from max_lr down to min_lr
    decay_ratio = (step - warmup_steps) / (total_steps - warmup_steps)
    coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio))
    return min_lr + coeff * (max_lr - min_lr)
