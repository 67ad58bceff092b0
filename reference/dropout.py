"""Inverted dropout with a torch.Generator.

Dropout (Srivastava et al. 2014, JMLR 15, §4 eq. for r_j ~ Bernoulli(p_keep)): in training each unit is kept
independently with probability 1 − p and dropped (set to 0) otherwise. The "inverted" form scales the kept units
by 1 / (1 − p) at training time, so that E[output] = x and evaluation is the identity (the paper instead scales
the weights by the keep probability at test time). This is torch.nn.functional.dropout, whose kernel draws
`bernoulli_(1 − p)` and multiplies by 1 / (1 − p); here the mask comes from `generator` alone, so a draw can be
reproduced, and p = 1 gives zeros (torch's convention) instead of 0 · inf.
"""
import torch


def dropout(x, p=0.5, training=True, generator=None):
    """x: any shape. Returns x's shape, dtype and device: zeros where dropped, x / (1 − p) where kept."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return x
    # uniforms in float32 (the default dtype), whatever x's dtype: half-precision uniforms are too coarse for a
    # keep probability of 0.001
    keep = torch.rand(x.shape, generator=generator, device=x.device) < 1.0 - p  # (*x.shape) bool
    scale = 1.0 / (1.0 - p) if p < 1.0 else 0.0  # p = 1 keeps nothing: zeros, not 0 · inf
    return x * keep * scale
