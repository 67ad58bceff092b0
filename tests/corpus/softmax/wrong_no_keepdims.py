# kata: softmax
# why: reduces without keepdims, so the max and the sum broadcast against the wrong axis
# mistake: no_keepdims
import numpy as np


def softmax(x, dim=-1):
    e = np.exp(x - np.max(x, axis=dim))
    return e / np.sum(e, axis=dim)
