# kata: softmax
import numpy as np


def softmax(x, dim=-1):
    raise NotImplementedError("write softmax")
