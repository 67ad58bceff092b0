# kata: cosine-schedule
# why: the cosine's progress is step / total_steps, counted from step 0 instead of from the end of warmup
# mistake: progress_ignores_warmup
from math import cos, pi


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    if step >= warmup_steps and step <= total_steps:
        progress = step / total_steps
        return min_lr + (max_lr - min_lr) * (1 + cos(pi * progress)) / 2
    return max_lr * step / warmup_steps if step < warmup_steps else min_lr
