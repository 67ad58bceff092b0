# kata: cosine-schedule
import math


def lr_multiplier(step, warmup_steps, total_steps, floor_rate):
    """What LambdaLR would multiply the base lr by: in [floor_rate, 1] after warmup."""
    if step < warmup_steps:
        return step / max(1, warmup_steps)
    progress = min(1.0, (step - warmup_steps) / max(1, total_steps - warmup_steps))
    cosine = 0.5 * (1.0 + math.cos(math.pi * progress))
    return floor_rate + (1.0 - floor_rate) * cosine


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    return max_lr * lr_multiplier(step, warmup_steps, total_steps, min_lr / max_lr)
