# kata: grad-clip
import math

import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    params = [parameters] if torch.is_tensor(parameters) else list(parameters)
    params = [p for p in params if p.grad is not None]
    if not params:
        return torch.tensor(0.0)
    if norm_type == math.inf:
        total = max(p.grad.abs().max() for p in params)
    else:
        squares = params[0].grad.new_zeros(())
        for p in params:
            squares = squares + p.grad.pow(2).sum()
        total = squares.sqrt()
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    for p in params:
        p.grad = p.grad * coef
    return total
