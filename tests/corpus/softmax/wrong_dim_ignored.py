# kata: softmax
# why: the seed notes' version: always normalises over the last axis, whatever dim says
# mistake: dim_ignored
import numpy as np


def softmax(x, dim=-1):
    e_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e_x / np.sum(e_x, axis=-1, keepdims=True)
