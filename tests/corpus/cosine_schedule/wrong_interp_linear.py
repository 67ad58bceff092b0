# kata: cosine-schedule
# why: np.interp through (0, 0), (W, max_lr), (T, min_lr): the warmup is right, but the decay is a straight line
# mistake: linear_decay
import numpy as np


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    if warmup_steps == 0:
        return float(np.interp(step, [0, total_steps], [max_lr, min_lr]))
    return float(np.interp(step, [0, warmup_steps, total_steps], [0.0, max_lr, min_lr]))
