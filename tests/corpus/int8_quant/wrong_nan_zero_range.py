# kata: int8-quant
# why: divides by a scale that is 0 for an all-zero slice: scale 0 and NaN codes
# mistake: nan_on_zero_range
import torch


def quantize_int8(x, dim=None, symmetric=True):
    if dim is None:
        dims = tuple(range(x.dim()))
    else:
        dims = tuple(d for d in range(x.dim()) if d != dim % x.dim())
    if symmetric:
        scale = x.abs().amax(dim=dims, keepdim=True) / 127
        zp = torch.zeros_like(scale, dtype=torch.int64)
        q = torch.round(x / scale).clamp(-127, 127)
    else:
        lo = x.amin(dim=dims, keepdim=True).clamp(max=0)
        hi = x.amax(dim=dims, keepdim=True).clamp(min=0)
        scale = (hi - lo) / 255
        zp = (-128 - torch.round(lo / scale)).clamp(-128, 127)
        q = (torch.round(x / scale) + zp).clamp(-128, 127)
        zp = zp.to(torch.int64)
    shape = () if dim is None else (-1,)
    return q.to(torch.int8), scale.reshape(shape), zp.reshape(shape)
