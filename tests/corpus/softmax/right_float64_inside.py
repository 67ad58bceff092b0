# kata: softmax
# why: computes in float64 whatever the input, then casts back to the input's dtype
import numpy as np


def softmax(x, dim=-1):
    z = np.asarray(x, dtype=np.float64)
    z = z - np.amax(z, axis=dim, keepdims=True)
    e = np.exp(z)
    return (e / np.sum(e, axis=dim, keepdims=True)).astype(x.dtype)
