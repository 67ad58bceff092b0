# kata: int8-quant
import torch


def quantize_int8(x, dim=None, symmetric=True):
    raise NotImplementedError("write quantize_int8")
