# kata: cosine-schedule
# why: nanoGPT's warmup and no floor after total at once: no single known mistake explains it
# mistake: none
import math


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    if step < warmup_steps:
        return max_lr * (step + 1) / (warmup_steps + 1)
    p = (step - warmup_steps) / max(1, total_steps - warmup_steps)
    return min_lr + (max_lr - min_lr) * 0.5 * (1 + math.cos(math.pi * p))
