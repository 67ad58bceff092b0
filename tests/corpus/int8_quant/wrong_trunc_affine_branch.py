# kata: int8-quant
# why: vectorised with keepdim statistics; only the affine branch truncates: (x / scale).long() + zero_point, clamped
# mistake: truncation
import torch


def quantize_int8(x, dim=None, symmetric=True):
    if dim is None:
        axes = tuple(range(x.dim()))
    else:
        d = dim if dim >= 0 else dim + x.dim()
        axes = tuple(a for a in range(x.dim()) if a != d)
    if symmetric:
        scale = x.abs().amax(dim=axes, keepdim=True) / 127.0
        scale[scale == 0] = 1.0
        q = torch.round(x / scale).clamp(-127, 127).to(torch.int8)
        zp = torch.zeros(scale.shape, dtype=torch.int64)
    else:
        mn = torch.minimum(x.amin(dim=axes, keepdim=True), torch.zeros(()))
        mx = torch.maximum(x.amax(dim=axes, keepdim=True), torch.zeros(()))
        scale = (mx - mn) / 255.0
        scale[scale == 0] = 1.0
        zp = (-128 - torch.round(mn / scale)).clamp(-128, 127).long()
        q = ((x / scale).long() + zp).clamp(-128, 127).to(torch.int8)
    if dim is None:
        return q, scale.reshape(()), zp.reshape(())
    return q, scale.flatten(), zp.flatten()
