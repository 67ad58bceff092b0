# kata: softmax
"""Numerically stable softmax in NumPy.

Write `softmax(x, dim=-1) -> np.ndarray`, using NumPy only (no torch, no scipy.special.softmax).

Input:
    x    an np.ndarray of rank >= 1, float32 or float64
    dim  the axis to normalise along; any axis, positive or negative (-1 = the last)

Contract:
    softmax(x)[..., i, ...] = exp(x_i) / sum_j exp(x_j), the sum running along `dim`
    - the result has x's shape and dtype (float32 in, float32 out)
    - values as large as +-1e4 must give no overflow, no NaN, no inf
    - every slice along `dim` is right on its own, even when slices have very different magnitudes
    - an entry of -inf gets probability 0 (every slice has at least one finite entry)
    - x itself is not modified

Run `kata check softmax` to test; `kata hint softmax` for a nudge.
"""
import numpy as np


def softmax(x, dim=-1):
    raise NotImplementedError("write softmax")
