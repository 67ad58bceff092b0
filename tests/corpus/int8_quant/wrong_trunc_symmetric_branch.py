# kata: int8-quant
# why: loops over the channels; the symmetric branch casts the clamped x / scale to int8 without rounding (truncation), the affine branch rounds
# mistake: truncation
import torch


def _one(v, symmetric):
    if symmetric:
        s = v.abs().max() / 127
        if s == 0:
            s = torch.ones_like(s)
        return (v / s).clamp(-127, 127).to(torch.int8), s, torch.zeros((), dtype=torch.int64)
    lo, hi = torch.clamp(v.min(), max=0), torch.clamp(v.max(), min=0)
    s = (hi - lo) / 255
    if s == 0:
        s = torch.ones_like(s)
    zp = torch.clamp(-128 - torch.round(lo / s), -128, 127)
    q = torch.clamp(torch.round(v / s) + zp, -128, 127).to(torch.int8)
    return q, s, zp.to(torch.int64)


def quantize_int8(x, dim=None, symmetric=True):
    if dim is None:
        return _one(x, symmetric)
    dim = dim % x.ndim
    moved = x.movedim(dim, 0)
    qs, ss, zs = [], [], []
    for c in range(moved.shape[0]):
        q, s, z = _one(moved[c], symmetric)
        qs.append(q)
        ss.append(s)
        zs.append(z)
    return torch.stack(qs).movedim(0, dim), torch.stack(ss), torch.stack(zs)
