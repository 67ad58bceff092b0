# kata: cosine-schedule
# why: timm-style warmup that starts at warmup_lr_init = min_lr and climbs to max_lr (step 0 gives min_lr, not 0)
# mistake: warmup_from_min_lr
import math


class _Cosine:
    def __init__(self, base, floor, warmup_t, t_total):
        self.base, self.floor, self.warmup_t, self.t_total = base, floor, warmup_t, t_total
        self.warmup_lr_init = floor

    def at(self, t):
        if t < self.warmup_t:
            slope = (self.base - self.warmup_lr_init) / self.warmup_t
            return self.warmup_lr_init + t * slope
        if t >= self.t_total:
            return self.floor
        frac = (t - self.warmup_t) / (self.t_total - self.warmup_t)
        return self.floor + 0.5 * (self.base - self.floor) * (1 + math.cos(math.pi * frac))


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    return _Cosine(max_lr, min_lr, warmup_steps, total_steps).at(step)
