# kata: cosine-schedule
# why: returns 0.0 once the schedule is over, instead of holding min_lr
# mistake: zero_after_total
import math


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    if step > total_steps:
        return 0.0
    if step < warmup_steps:
        return max_lr * (step / warmup_steps)
    p = (step - warmup_steps) / max(1, total_steps - warmup_steps)
    return min_lr + (max_lr - min_lr) * (0.5 + 0.5 * math.cos(math.pi * p))
