# kata: int8-quant
# why: writes the uint8 formulas (levels 0..255, zero point -round(lo / scale)) and casts to int8
# mistake: uint8_zero_point
import torch


def quantize_int8(x, dim=None, symmetric=True):
    dims = list(range(x.dim())) if dim is None else [d for d in range(x.dim()) if d != dim % x.dim()]
    if symmetric:
        scale = x.abs().amax(dim=dims, keepdim=True) / 127
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        q = torch.clamp(torch.round(x / scale), -127, 127).to(torch.int8)
        zp = torch.zeros_like(scale, dtype=torch.int64)
    else:
        qmin, qmax = 0, 255
        lo = torch.clamp(x.amin(dim=dims, keepdim=True), max=0)
        hi = torch.clamp(x.amax(dim=dims, keepdim=True), min=0)
        scale = (hi - lo) / (qmax - qmin)
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zp = torch.clamp(qmin - torch.round(lo / scale), qmin, qmax)
        q = torch.clamp(torch.round(x / scale) + zp, qmin, qmax).to(torch.int8)
        zp = zp.to(torch.int64)
    if dim is None:
        return q, scale.reshape(()), zp.reshape(())
    return q, scale.reshape(-1), zp.reshape(-1)
