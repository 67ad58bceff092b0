# kata: numpy-mha
import numpy as np


def multi_head_attention(x, w_q, w_k, w_v, w_o, num_heads, mask=None, b_q=None, b_k=None, b_v=None, b_o=None):
    raise NotImplementedError("write multi_head_attention")
