# kata: int8-quant
# why: the affine branch guards a zero range, the symmetric branch divides by a scale of 0 (NaN on an all-zero slice)
# mistake: nan_on_zero_range
import torch


def quantize_int8(x, dim=None, symmetric=True):
    if dim is not None:
        dim = dim % x.dim()
        keep = [i for i in range(x.dim()) if i != dim]
    else:
        keep = list(range(x.dim()))
    if symmetric:
        scale = x.abs().amax(keep, keepdim=True) / 127
        q = (x / scale).round().clamp(-127, 127)
        zp = torch.zeros_like(scale).long()
    else:
        lo = x.amin(keep, keepdim=True).clamp(max=0)
        hi = x.amax(keep, keepdim=True).clamp(min=0)
        scale = (hi - lo) / 255
        scale = scale.masked_fill(scale == 0, 1.0)
        zp = (-128 - (lo / scale).round()).clamp(-128, 127).long()
        q = ((x / scale).round() + zp).clamp(-128, 127)
    if dim is None:
        return q.to(torch.int8), scale.squeeze(), zp.squeeze()
    return q.to(torch.int8), scale.reshape(-1), zp.reshape(-1)
