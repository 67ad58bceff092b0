# kata: int8-quant
# why: a loop over the channels with unbind/stack; the affine q subtracts the zero point (round(x / scale) - zero_point)
# mistake: zero_point_sign
import torch


def _quant(v, symmetric):
    if symmetric:
        s = v.abs().max() / 127
        s = torch.where(s > 0, s, torch.ones_like(s))
        return torch.clamp(torch.round(v / s), -127, 127), s, torch.zeros((), dtype=torch.int64)
    lo = torch.clamp(v.min(), max=0.0)
    hi = torch.clamp(v.max(), min=0.0)
    s = (hi - lo) / 255
    s = torch.where(s > 0, s, torch.ones_like(s))
    zp = torch.clamp(-128 - torch.round(lo / s), -128, 127)
    return torch.clamp(torch.round(v / s) - zp, -128, 127), s, zp.long()


def quantize_int8(x, dim=None, symmetric=True):
    if dim is None:
        q, s, z = _quant(x, symmetric)
        return q.to(torch.int8), s, z
    d = dim % x.dim()
    parts = [_quant(v, symmetric) for v in x.unbind(d)]
    q = torch.stack([p[0] for p in parts], dim=d).to(torch.int8)
    return q, torch.stack([p[1] for p in parts]), torch.stack([p[2] for p in parts])
