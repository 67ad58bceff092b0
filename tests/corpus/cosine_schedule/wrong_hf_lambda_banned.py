# kata: cosine-schedule
# why: transformers' own lr lambda times max_lr (banned): right up to total_steps, then the cosine climbs back
# mistake: no_floor_after_total
from transformers.optimization import _get_cosine_schedule_with_warmup_lr_lambda


def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
    factor = _get_cosine_schedule_with_warmup_lr_lambda(step, num_warmup_steps=warmup_steps,
                                                        num_training_steps=total_steps, num_cycles=0.5,
                                                        min_lr_rate=min_lr / max_lr)
    return max_lr * factor
