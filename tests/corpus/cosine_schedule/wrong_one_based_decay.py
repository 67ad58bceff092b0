# kata: cosine-schedule
# why: counts the decay steps from 1: (step - warmup + 1) / (total - warmup), so min_lr is reached one step early and step T overshoots
# mistake: last_step_not_at_min
import math


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    if step < warmup_steps:
        return max_lr * step / warmup_steps
    if step > total_steps:
        return min_lr
    decay_steps = max(1, total_steps - warmup_steps)
    k = step - warmup_steps + 1
    return min_lr + (max_lr - min_lr) * 0.5 * (1 + math.cos(math.pi * k / decay_steps))
