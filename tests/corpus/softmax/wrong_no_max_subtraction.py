# kata: softmax
# why: exp(x) straight away: overflows to inf (then inf/inf = NaN) for values around 1e4
# mistake: no_max
import numpy as np


def softmax(x, dim=-1):
    e = np.exp(x)
    return e / e.sum(axis=dim, keepdims=True)
