# kata: int8-quant
# why: clamps x / scale (+ zero_point) and casts with .int(): truncation toward zero in both branches, torch.where idiom for the range
# mistake: truncation
import torch


def quantize_int8(x, dim=None, symmetric=True):
    dims = list(range(x.dim())) if dim is None else [d for d in range(x.dim()) if d != dim % x.dim()]
    if symmetric:
        a = x.abs().amax(dims, keepdim=True)
        scale = torch.where(a == 0, torch.ones_like(a), a / 127)
        zp = torch.zeros_like(a, dtype=torch.int64)
        q = torch.clamp(x / scale, -127, 127).int()
    else:
        lo = torch.where(x.amin(dims, keepdim=True) < 0, x.amin(dims, keepdim=True), torch.zeros_like(scale := x.amin(dims, keepdim=True)))
        hi = torch.where(x.amax(dims, keepdim=True) > 0, x.amax(dims, keepdim=True), torch.zeros_like(lo))
        scale = (hi - lo) / 255
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zp = torch.clamp(-128 - torch.round(lo / scale), -128, 127).to(torch.int64)
        q = torch.clamp(x / scale + zp, -128, 127).int()
    if dim is None:
        return q.to(torch.int8), scale.reshape([]), zp.reshape([])
    return q.to(torch.int8), scale.reshape(-1), zp.reshape(-1)
