# kata: int8-quant
# why: per-channel statistics taken along dim itself (amax(dim=dim)) instead of over the other axes
# mistake: channel_axis_reduced
import torch


def quantize_int8(x, dim=None, symmetric=True):
    if symmetric:
        if dim is None:
            amax = x.abs().max()
        else:
            amax = x.abs().amax(dim=dim, keepdim=True)
        scale = amax / 127
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zp = torch.zeros_like(scale, dtype=torch.int64)
        q = torch.clamp(torch.round(x / scale), -127, 127)
    else:
        if dim is None:
            lo, hi = x.min(), x.max()
        else:
            lo, hi = x.amin(dim=dim, keepdim=True), x.amax(dim=dim, keepdim=True)
        lo, hi = lo.clamp(max=0), hi.clamp(min=0)
        scale = (hi - lo) / 255
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zp = torch.clamp(-128 - torch.round(lo / scale), -128, 127).long()
        q = torch.clamp(torch.round(x / scale) + zp, -128, 127)
    if dim is not None:
        scale, zp = scale.squeeze(dim), zp.squeeze(dim)
    return q.to(torch.int8), scale, zp
