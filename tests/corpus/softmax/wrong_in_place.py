# kata: softmax
# why: saves memory by working in x's own buffer (-=, out=x, /=): the caller's array is overwritten
# mistake: in_place
import numpy as np


def softmax(x, dim=-1):
    x -= x.max(axis=dim, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=dim, keepdims=True)
    return x
