# kata: int8-quant
# why: the symmetric scale is max|x| / 128 and q is clamped to [-128, 127], written with movedim and a flattened view
# mistake: absmax_over_128
import torch


def quantize_int8(x, dim=None, symmetric=True):
    if dim is None:
        rows = x.reshape(1, -1)
    else:
        rows = x.movedim(dim, 0).reshape(x.shape[dim], -1)
    if symmetric:
        scale = rows.abs().amax(dim=1) / 128
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zp = torch.zeros_like(scale, dtype=torch.int64)
        qmin = -128
    else:
        lo = rows.amin(dim=1).clamp(max=0)
        hi = rows.amax(dim=1).clamp(min=0)
        scale = (hi - lo) / 255
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zp = torch.clamp(-128 - torch.round(lo / scale), -128, 127).long()
        qmin = -128
    q = torch.round(rows / scale[:, None]) + zp[:, None]
    q = q.clamp(qmin, 127).to(torch.int8)
    if dim is None:
        return q.reshape(x.shape), scale[0], zp[0]
    moved = list(x.movedim(dim, 0).shape)
    return q.reshape(moved).movedim(0, dim), scale, zp
