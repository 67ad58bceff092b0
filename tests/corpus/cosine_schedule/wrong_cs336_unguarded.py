# kata: cosine-schedule
# why: CS336's get_lr_cosine_schedule as usually written: right everywhere but divides by zero when warmup_iters == cosine_cycle_iters
# mistake: no_guard_at_warmup_equals_total
import math


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    it = step
    if it < warmup_steps:
        return it / warmup_steps * max_lr
    if it <= total_steps:
        cos_val = math.cos((it - warmup_steps) / (total_steps - warmup_steps) * math.pi)
        return min_lr + 0.5 * (1 + cos_val) * (max_lr - min_lr)
    return min_lr
