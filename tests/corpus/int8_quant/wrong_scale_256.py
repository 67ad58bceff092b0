# kata: int8-quant
# why: asymmetric scale (max - min) / 256, counting levels instead of steps
# mistake: scale_over_256
import torch


def quantize_int8(x, dim=None, symmetric=True):
    if dim is None:
        dims = tuple(range(x.dim()))
    else:
        dims = tuple(d for d in range(x.dim()) if d != dim % x.dim())
    if symmetric:
        scale = x.abs().amax(dim=dims, keepdim=True) / 127
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        return _pack(torch.round(x / scale).clamp(-127, 127), scale, torch.zeros_like(scale, dtype=torch.int64), dim)
    lo = x.amin(dim=dims, keepdim=True).clamp(max=0)
    hi = x.amax(dim=dims, keepdim=True).clamp(min=0)
    scale = (hi - lo) / 256
    scale = torch.where(scale == 0, torch.ones_like(scale), scale)
    zp = (-128 - torch.round(lo / scale)).clamp(-128, 127)
    q = (torch.round(x / scale) + zp).clamp(-128, 127)
    return _pack(q, scale, zp.long(), dim)


def _pack(q, scale, zp, dim):
    if dim is None:
        return q.to(torch.int8), scale.reshape(()), zp.reshape(())
    return q.to(torch.int8), scale.reshape(-1), zp.reshape(-1)
