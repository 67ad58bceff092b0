"""Numerically stable softmax in NumPy.

softmax(x)_i = exp(x_i) / sum_j exp(x_j) = exp(x_i - m) / sum_j exp(x_j - m) for any m; taking
m = max_j x_j keeps every exponent <= 0, so nothing overflows (Goodfellow et al., "Deep Learning",
2016, §4.1). Entries of -inf give exp(-inf) = 0.
"""
import numpy as np


def softmax(x, dim=-1):
    """x: any shape, float; softmax along `dim`. Returns an array of x's shape and dtype."""
    assert -x.ndim <= dim < x.ndim, f"dim {dim} out of range for an array of rank {x.ndim}"
    m = np.max(x, axis=dim, keepdims=True)  # finite: every slice has a finite entry
    e = np.exp(x - m)  # a new array: x itself is left alone
    return e / np.sum(e, axis=dim, keepdims=True)
