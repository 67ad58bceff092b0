# kata: cosine-schedule
# why: the decay's progress is (step - warmup) / total_steps: shifted right, but divided by the whole run, so step T is above min_lr
# mistake: progress_over_total
import math


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    if step < warmup_steps:
        return step / warmup_steps * max_lr
    if step > total_steps:
        return min_lr
    done = (step - warmup_steps) / total_steps
    return min_lr + (max_lr - min_lr) * 0.5 * (1 + math.cos(done * math.pi))
