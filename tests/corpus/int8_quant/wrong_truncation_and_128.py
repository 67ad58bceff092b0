# kata: int8-quant
# why: two mistakes at once: absmax / 128 and an int8 cast that truncates
# mistake: none
import torch


def quantize_int8(x, dim=None, symmetric=True):
    dims = list(range(x.dim())) if dim is None else [d for d in range(x.dim()) if d != dim % x.dim()]
    if symmetric:
        scale = x.abs().amax(dim=dims, keepdim=True) / 128
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zp = torch.zeros_like(scale, dtype=torch.int64)
        q = (x / scale).clamp(-128, 127).to(torch.int8)
    else:
        lo = x.amin(dim=dims, keepdim=True).clamp(max=0)
        hi = x.amax(dim=dims, keepdim=True).clamp(min=0)
        scale = (hi - lo) / 255
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zp = (-128 - torch.round(lo / scale)).clamp(-128, 127).long()
        q = (x / scale + zp).clamp(-128, 127).to(torch.int8)
    shape = () if dim is None else (-1,)
    return q, scale.reshape(shape), zp.reshape(shape)
