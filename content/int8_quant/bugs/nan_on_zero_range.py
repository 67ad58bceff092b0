# kata: int8-quant
import torch


def quantize_int8(x, dim=None, symmetric=True):
    if dim is not None:
        dim = dim % x.dim()
        # one row per channel: [C, everything else]
        flat = x.transpose(0, dim).reshape(x.shape[dim], -1)
    else:
        flat = x.reshape(1, -1)

    lo, hi = torch.aminmax(flat, dim=1)
    if symmetric:
        amax = torch.maximum(lo.abs(), hi.abs())
        scale = amax / 127
        zero_point = torch.zeros_like(scale, dtype=torch.int64)
        qmin = -127
    else:
        lo = torch.clamp(lo, max=0)
        hi = torch.clamp(hi, min=0)
        scale = (hi - lo) / 255
        zero_point = torch.clamp(-128 - torch.round(lo / scale), -128, 127).to(torch.int64)
        qmin = -128

    shape = [1] * x.dim()
    if dim is not None:
        shape[dim] = -1
    q = torch.round(x / scale.view(shape)) + zero_point.view(shape)
    q = torch.clamp(q, qmin, 127).to(torch.int8)
    if dim is None:
        return q, scale[0], zero_point[0]
    return q, scale, zero_point
