# kata: int8-quant
# why: symmetric scale absmax / 128 with the full int8 range, the usual off-by-one of 2^7
# mistake: absmax_over_128
import torch


def quantize_int8(x, dim=None, symmetric=True):
    if dim is not None:
        dim = dim % x.dim()
        x_c = x.transpose(0, dim).reshape(x.shape[dim], -1)
    else:
        x_c = x.reshape(1, -1)
    if symmetric:
        scale = x_c.abs().max(dim=1).values / 128
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zp = torch.zeros(scale.shape, dtype=torch.long, device=x.device)
        qmin = -128
    else:
        lo = x_c.min(dim=1).values.clamp(max=0)
        hi = x_c.max(dim=1).values.clamp(min=0)
        scale = (hi - lo) / 255
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zp = (-128 - torch.round(lo / scale)).clamp(-128, 127).long()
        qmin = -128
    shape = [1] * x.dim()
    if dim is not None:
        shape[dim] = -1
    q = (torch.round(x / scale.view(shape)) + zp.view(shape)).clamp(qmin, 127).to(torch.int8)
    if dim is None:
        return q, scale[0], zp[0]
    return q, scale, zp
