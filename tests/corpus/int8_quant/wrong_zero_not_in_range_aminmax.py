# kata: int8-quant
# why: per channel by moving dim to the front and flattening the rest; the affine range is [min, max] of x itself, 0 not included
# mistake: zero_not_in_range
import torch


def quantize_int8(x, dim=None, symmetric=True):
    if dim is None:
        flat = x.reshape(1, -1)
    else:
        flat = x.movedim(dim, 0).reshape(x.shape[dim], -1)
    if symmetric:
        scale = flat.abs().max(dim=1).values / 127
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zp = torch.zeros_like(scale, dtype=torch.int64)
    else:
        lo, hi = torch.aminmax(flat, dim=1)
        scale = (hi - lo) / 255
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zp = torch.clamp(-128 - torch.round(lo / scale), -128, 127).to(torch.int64)
    view = [1] * x.dim()
    if dim is not None:
        view[dim] = -1
    s, z = scale.reshape(view), zp.reshape(view)
    lo_q = -127 if symmetric else -128
    q = torch.clamp(torch.round(x / s) + z, lo_q, 127).to(torch.int8)
    if dim is None:
        return q, scale[0], zp[0]
    return q, scale, zp
