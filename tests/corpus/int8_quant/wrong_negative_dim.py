# kata: int8-quant
# why: lists the axes to reduce as those != dim without normalising dim, so dim=-1 reduces over everything
# mistake: negative_dim
import torch


def quantize_int8(x, dim=None, symmetric=True):
    if dim is None:
        axes = list(range(x.dim()))
    else:
        axes = [a for a in range(x.dim()) if a != dim]
    if symmetric:
        scale = x.abs().amax(dim=axes, keepdim=True) / 127
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zero_point = torch.zeros_like(scale, dtype=torch.int64)
        q = torch.round(x / scale).clamp(-127, 127)
    else:
        lo = x.amin(dim=axes, keepdim=True).clamp(max=0)
        hi = x.amax(dim=axes, keepdim=True).clamp(min=0)
        scale = (hi - lo) / 255
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zero_point = (-128 - torch.round(lo / scale)).clamp(-128, 127).to(torch.int64)
        q = (torch.round(x / scale) + zero_point).clamp(-128, 127)
    if dim is None:
        return q.to(torch.int8), scale.reshape(()), zero_point.reshape(())
    return q.to(torch.int8), scale.reshape(-1), zero_point.reshape(-1)
