# kata: int8-quant
import torch


def quantize_int8(x, dim=None, symmetric=True):
    if dim is None:
        dims = list(range(x.dim()))
    else:
        dims = [d for d in range(x.dim()) if d != dim % x.dim()]
    if symmetric:
        scale = x.abs().amax(dim=dims, keepdim=True) / 127
        scale = torch.where(scale > 0, scale, torch.ones_like(scale))
        inv = 1.0 / scale
        zp = torch.zeros_like(scale, dtype=torch.int64)
        q = torch.floor(x * inv + 0.5).clamp(-127, 127).to(torch.int8)
    else:
        lo = x.amin(dim=dims, keepdim=True).clamp(max=0)
        hi = x.amax(dim=dims, keepdim=True).clamp(min=0)
        scale = (hi - lo) / 255
        scale = torch.where(scale > 0, scale, torch.ones_like(scale))
        inv = 1.0 / scale
        zp = (-128 - torch.floor(lo * inv + 0.5)).clamp(-128, 127).long()
        q = (torch.floor(x * inv + 0.5) + zp).clamp(-128, 127).to(torch.int8)
    shape = () if dim is None else (-1,)
    return q, scale.reshape(shape), zp.reshape(shape)
