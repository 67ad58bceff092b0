# kata: cosine-schedule
# why: adds min_lr on top of the full-height cosine: starts the decay at max_lr + min_lr
# mistake: min_lr_added
import math


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    if step < warmup_steps:
        return max_lr * step / warmup_steps
    if step > total_steps:
        return min_lr
    cosine = 0.5 * (1 + math.cos(math.pi * (step - warmup_steps) / max(1, total_steps - warmup_steps)))
    return min_lr + max_lr * cosine
