# kata: int8-quant
# why: rounds with torch.floor, which moves every negative value a step down
# mistake: floor
import torch


def quantize_int8(x, dim=None, symmetric=True):
    axes = list(range(x.dim())) if dim is None else [a for a in range(x.dim()) if a != dim % x.dim()]
    if symmetric:
        scale = x.abs().amax(dim=axes, keepdim=True) / 127
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zp = torch.zeros_like(scale, dtype=torch.int64)
        q = torch.floor(x / scale).clamp(-127, 127)
    else:
        lo = x.amin(dim=axes, keepdim=True).clamp(max=0)
        hi = x.amax(dim=axes, keepdim=True).clamp(min=0)
        scale = (hi - lo) / 255
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zp = (-128 - torch.floor(lo / scale)).clamp(-128, 127).long()
        q = (torch.floor(x / scale) + zp).clamp(-128, 127)
    shape = () if dim is None else (-1,)
    return q.to(torch.int8), scale.reshape(shape), zp.reshape(shape)
