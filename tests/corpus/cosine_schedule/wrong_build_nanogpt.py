# kata: cosine-schedule
# why: build-nanogpt's warmup max_lr * (it + 1) / warmup_steps (max_lr one step early), with a guard for warmup = total
# mistake: build_nanogpt_warmup
import math


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step > total_steps:
        return min_lr
    span = max(total_steps - warmup_steps, 1)
    decay_ratio = (step - warmup_steps) / span
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * decay_ratio)) * (max_lr - min_lr)
