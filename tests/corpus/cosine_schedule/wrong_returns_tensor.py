# kata: cosine-schedule
# why: computed with torch in float64 (the values are right) but every step returns a 0-dim tensor instead of a float
# mistake: tensor_returned
import math

import torch


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    step_t = torch.tensor(step, dtype=torch.float64)
    if step < warmup_steps:
        return max_lr * step_t / warmup_steps
    progress = ((step_t - warmup_steps) / max(1, total_steps - warmup_steps)).clamp(max=1.0)
    return min_lr + (max_lr - min_lr) * 0.5 * (1 + torch.cos(math.pi * progress))
