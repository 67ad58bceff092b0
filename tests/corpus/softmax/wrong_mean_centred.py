# kata: softmax
# why: centres by the mean instead of the max: -inf makes the mean -inf (NaN), and 1e4 spreads still overflow
# mistake: mean_centred
import numpy as np


def softmax(x, dim=-1):
    e = np.exp(x - x.mean(axis=dim, keepdims=True))
    return e / e.sum(axis=dim, keepdims=True)
