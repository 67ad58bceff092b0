# kata: int8-quant
# why: the affine step is (hi - lo) / 256 (256 levels taken as 256 steps), in a loop over the channels
# mistake: scale_over_256
import torch


def quantize_int8(x, dim=None, symmetric=True):
    if dim is None:
        slices, pos = [x], None
    else:
        pos = dim % x.dim()
        slices = list(x.unbind(pos))
    qs, scales, zps = [], [], []
    for v in slices:
        if symmetric:
            s = v.abs().max() / 127
            s = s if s > 0 else torch.ones_like(s)
            z = torch.tensor(0)
            q = torch.clamp(torch.round(v / s), -127, 127)
        else:
            lo = min(v.min(), torch.zeros_like(v.min()))
            hi = max(v.max(), torch.zeros_like(v.max()))
            s = (hi - lo) / 256
            s = s if s > 0 else torch.ones_like(s)
            z = torch.clamp(-128 - torch.round(lo / s), -128, 127)
            q = torch.clamp(torch.round(v / s) + z, -128, 127)
        qs.append(q.to(torch.int8))
        scales.append(s)
        zps.append(z.to(torch.int64))
    if pos is None:
        return qs[0], scales[0], zps[0]
    return torch.stack(qs, pos), torch.stack(scales), torch.stack(zps)
