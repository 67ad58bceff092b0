# kata: softmax
import numpy as np


def _softmax_1d(v):
    finite = np.isfinite(v)
    e = np.where(finite, np.exp(np.where(finite, v - v[finite].max(), 0.0)), 0.0).astype(v.dtype)
    return e / e.sum()


def softmax(x, dim=-1):
    return np.apply_along_axis(_softmax_1d, dim, x)
