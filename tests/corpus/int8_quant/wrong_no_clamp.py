# kata: int8-quant
# why: no clamp before the int8 cast: at lo / scale = -127.5 the max lands on 128 and wraps to -128
# mistake: none
import torch


def quantize_int8(x, dim=None, symmetric=True):
    dims = list(range(x.dim())) if dim is None else [d for d in range(x.dim()) if d != dim % x.dim()]
    if symmetric:
        scale = x.abs().amax(dim=dims, keepdim=True) / 127
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zp = torch.zeros_like(scale, dtype=torch.int64)
        q = torch.round(x / scale)
    else:
        lo = x.amin(dim=dims, keepdim=True).clamp(max=0)
        hi = x.amax(dim=dims, keepdim=True).clamp(min=0)
        scale = (hi - lo) / 255
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zp = (-128 - torch.round(lo / scale)).long()
        q = torch.round(x / scale) + zp
    shape = () if dim is None else (-1,)
    return q.to(torch.int8), scale.reshape(shape), zp.reshape(shape)
