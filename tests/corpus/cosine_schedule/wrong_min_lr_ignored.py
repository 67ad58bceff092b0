# kata: cosine-schedule
# why: the cosine decays max_lr to 0 whatever min_lr is; min_lr is only used after the end
# mistake: min_lr_ignored
import math


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    if step > total_steps:
        return min_lr
    if step < warmup_steps:
        return max_lr * step / warmup_steps
    cosine_progress = (step - warmup_steps) / max(1, total_steps - warmup_steps)
    return max_lr * (1 + math.cos(math.pi * cosine_progress)) / 2
