# kata: cosine-schedule
# why: CS336's get_lr_cosine_schedule shape (it, warmup_iters, cosine_cycle_iters) with the floor test first, so warmup = total gives min_lr
import math


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    it, warmup_iters, cosine_cycle_iters = step, warmup_steps, total_steps
    if it < warmup_iters:
        return it / warmup_iters * max_lr
    if it >= cosine_cycle_iters:
        return min_lr
    cos_term = math.cos((it - warmup_iters) / (cosine_cycle_iters - warmup_iters) * math.pi)
    return min_lr + 0.5 * (1 + cos_term) * (max_lr - min_lr)
