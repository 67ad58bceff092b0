# kata: int8-quant
# why: casts x / scale straight to int8, which truncates toward zero instead of rounding
# mistake: truncation
import torch


def quantize_int8(x, dim=None, symmetric=True):
    if dim is None:
        dims = list(range(x.dim()))
    else:
        dim = dim % x.dim()
        dims = [d for d in range(x.dim()) if d != dim]
    if symmetric:
        scale = x.abs().amax(dim=dims, keepdim=True) / 127
        scale[scale == 0] = 1.0
        zp = torch.zeros_like(scale, dtype=torch.int64)
        q = (x / scale).clamp(-127, 127).to(torch.int8)
    else:
        lo = x.amin(dim=dims, keepdim=True).clamp(max=0)
        hi = x.amax(dim=dims, keepdim=True).clamp(min=0)
        scale = (hi - lo) / 255
        scale[scale == 0] = 1.0
        zp = (-128 - torch.round(lo / scale)).clamp(-128, 127).long()
        q = (x / scale + zp).clamp(-128, 127).to(torch.int8)
    if dim is None:
        return q, scale.reshape(()), zp.reshape(())
    return q, scale.flatten(), zp.flatten()
