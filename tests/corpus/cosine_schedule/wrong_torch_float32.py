# kata: cosine-schedule
# why: the whole schedule in torch on default (float32) tensors, converted with .item(): every value ~1e-7 off
# mistake: float32_arithmetic
import math

import torch


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    s = torch.tensor(float(step))
    hi, lo = torch.tensor(max_lr), torch.tensor(min_lr)
    if step < warmup_steps:
        return (hi * s / warmup_steps).item()
    if step > total_steps:
        return lo.item()
    p = (s - warmup_steps) / max(1, total_steps - warmup_steps)
    return (lo + (hi - lo) * 0.5 * (1 + torch.cos(math.pi * p))).item()
