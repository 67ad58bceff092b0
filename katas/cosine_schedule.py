# kata: cosine-schedule
import math


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    raise NotImplementedError("write warmup_cosine_lr")
