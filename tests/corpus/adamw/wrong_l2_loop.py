# kata: adamw
# why: element by element, the decay folded into the gradient (Adam with L2), not applied to the weights
# mistake: l2_in_gradient
import math

import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    b1, b2 = betas
    p, g0 = param.reshape(-1), grad.reshape(-1)
    m0, v0 = exp_avg.reshape(-1), exp_avg_sq.reshape(-1)
    ps, ms, vs = [], [], []
    for i in range(p.numel()):
        g = g0[i] + weight_decay * p[i]
        m = b1 * m0[i] + (1 - b1) * g
        v = b2 * v0[i] + (1 - b2) * g * g
        upd = lr * (m / (1 - b1 ** step)) / (torch.sqrt(v / (1 - b2 ** step)) + eps)
        ps.append(p[i] - upd)
        ms.append(m)
        vs.append(v)
    shape = param.shape
    return torch.stack(ps).reshape(shape), torch.stack(ms).reshape(shape), torch.stack(vs).reshape(shape)
