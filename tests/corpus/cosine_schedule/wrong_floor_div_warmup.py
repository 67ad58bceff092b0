# kata: cosine-schedule
# why: the warmup fraction uses // (integer division), so every warmup step gives 0
# mistake: integer_division
import math


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    if step < warmup_steps:
        ratio = step // warmup_steps
        return max_lr * ratio
    elif step <= total_steps:
        ratio = (step - warmup_steps) / max(total_steps - warmup_steps, 1)
        return min_lr + (max_lr - min_lr) * 0.5 * (1 + math.cos(math.pi * ratio))
    else:
        return min_lr
