# kata: int8-quant
# why: writes the uint8 recipe (zero_point = round(-lo / scale) in [0, 255], q clamped to [0, 255]) and casts it to int8
# mistake: uint8_zero_point
import torch


def quantize_int8(x, dim=None, symmetric=True):
    nd = x.dim()
    if dim is None:
        red = tuple(range(nd))
    else:
        red = tuple(i for i in range(nd) if i != (dim + nd) % nd)
    if symmetric:
        m = x.abs().amax(dim=red, keepdim=True)
        scale = torch.where(m == 0, torch.ones_like(m), m / 127)
        q = torch.round(x / scale).clamp(-127, 127)
        zp = torch.zeros_like(m, dtype=torch.int64)
    else:
        xmin = x.amin(dim=red, keepdim=True).clamp(max=0)
        xmax = x.amax(dim=red, keepdim=True).clamp(min=0)
        scale = (xmax - xmin) / 255
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zp = torch.round(-xmin / scale).clamp(0, 255)
        q = (torch.round(x / scale) + zp).clamp(0, 255)
        zp = zp.to(torch.int64)
    shape = () if dim is None else (-1,)
    return q.to(torch.int8), scale.reshape(shape), zp.reshape(shape)
