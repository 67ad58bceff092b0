# kata: int8-quant
# why: one helper for the statistics; the symmetric branch rounds with torch.floor, the affine one with torch.round
# mistake: floor
import torch


def _reduce_dims(x, dim):
    if dim is None:
        return list(range(x.ndim))
    dim %= x.ndim
    return [i for i in range(x.ndim) if i != dim]


def quantize_int8(x, dim=None, symmetric=True):
    red = _reduce_dims(x, dim)
    if symmetric:
        amax = torch.amax(torch.abs(x), dim=red, keepdim=True)
        scale = torch.where(amax > 0, amax / 127, torch.ones_like(amax))
        q = torch.clamp(torch.floor(x / scale), -127, 127)
        zero = torch.zeros_like(scale, dtype=torch.long)
    else:
        lo = torch.amin(x, dim=red, keepdim=True).clamp(max=0.0)
        hi = torch.amax(x, dim=red, keepdim=True).clamp(min=0.0)
        scale = torch.where(hi > lo, (hi - lo) / 255, torch.ones_like(hi))
        zero = torch.clamp(-128 - torch.round(lo / scale), -128, 127).long()
        q = torch.clamp(torch.round(x / scale) + zero, -128, 127)
    out = (-1,) if dim is not None else ()
    return q.to(torch.int8), scale.reshape(out), zero.reshape(out)
