# kata: cosine-schedule
# why: NumPy scalars throughout (np.cos, np.clip on the progress), returning a NumPy float64, which the contract accepts
import numpy as np


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    if step < warmup_steps:
        return np.float64(max_lr) * step / warmup_steps
    frac = np.clip((step - warmup_steps) / max(total_steps - warmup_steps, 1), 0.0, 1.0)
    return min_lr + (max_lr - min_lr) * (np.cos(np.pi * frac) + 1.0) / 2.0
