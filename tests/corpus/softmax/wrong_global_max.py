# kata: softmax
# why: subtracts one max over the whole array: slices far below it underflow to 0/0
# mistake: global_max
import numpy as np


def softmax(x, dim=-1):
    e = np.exp(x - np.max(x))
    return e / np.sum(e, axis=dim, keepdims=True)
