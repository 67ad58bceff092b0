# kata: softmax
# why: converts to float64 for stability and forgets to convert back: float32 in, float64 out
# mistake: float64_out
import numpy as np


def softmax(x, dim=-1):
    z = x.astype(np.float64)
    e = np.exp(z - z.max(axis=dim, keepdims=True))
    return e / e.sum(axis=dim, keepdims=True)
