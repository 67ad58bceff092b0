# kata: cosine-schedule
# why: num_cycles = 1 in transformers' formula, cos(pi * 2 * num_cycles * p): a full period, back at max_lr at total_steps
# mistake: full_cosine_period
import math


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0, num_cycles=1.0):
    if step < warmup_steps:
        return max_lr * step / max(1, warmup_steps)
    if step > total_steps:
        return min_lr
    progress = (step - warmup_steps) / max(1, total_steps - warmup_steps)
    factor = 0.5 * (1.0 + math.cos(math.pi * num_cycles * 2.0 * progress))
    return min_lr + (max_lr - min_lr) * factor
