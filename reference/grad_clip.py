"""Clip gradients by their global norm, in place: torch.nn.utils.clip_grad_norm_.

Pascanu, Mikolov & Bengio, "On the difficulty of training recurrent neural networks" (ICML 2013), Algorithm 1:
if ‖g‖ > threshold, g ← threshold · g / ‖g‖, with ‖g‖ the norm of all gradients together. torch's form adds 1e-6 to
the norm and clamps the coefficient to 1 instead of branching, and returns the norm before clipping:

    total = ‖(‖g_1‖, …, ‖g_n‖)‖_p          (p = 2: sqrt of Σ g² over every entry; p = inf: max |g|)
    coef  = min(1, max_norm / (total + 1e-6))
    g_i  ← coef · g_i                        (every .grad that is not None)
"""
import math

import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    """parameters: tensors with .grad (a list, a tuple, a generator, or one tensor). Returns the pre-clip norm."""
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    parameters = list(parameters)  # a generator can be read only once
    norm_type = float(norm_type)
    assert norm_type in (2.0, math.inf), f"norm_type 2 or inf, got {norm_type}"
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    norms = [torch.linalg.vector_norm(g, norm_type) for g in grads]  # one 0-dim tensor per gradient
    total_norm = torch.linalg.vector_norm(torch.stack(norms), norm_type)  # [n] -> 0-dim
    clip_coef = torch.clamp(max_norm / (total_norm + 1e-6), max=1.0)
    for g in grads:
        g.mul_(clip_coef)
    return total_norm
