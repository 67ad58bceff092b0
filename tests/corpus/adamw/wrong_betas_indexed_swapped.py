# kata: adamw
# why: betas[1] for the momentum and betas[0] for the squared gradients (the indices crossed), torch.lerp style
# mistake: betas_swapped
import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    m = torch.lerp(exp_avg, grad, 1 - betas[1])
    v = torch.lerp(exp_avg_sq, grad.square(), 1 - betas[0])
    m_hat = m / (1 - betas[1] ** step)
    v_hat = v / (1 - betas[0] ** step)
    new = param - lr * weight_decay * param - lr * m_hat / (torch.sqrt(v_hat) + eps)
    return new, m, v
