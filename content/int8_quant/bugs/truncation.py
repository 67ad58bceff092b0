# kata: int8-quant
import torch


def quantize_int8(x, dim=None, symmetric=True):
    if dim is None:
        reduce_dims = tuple(range(x.dim()))
    else:
        dim = dim % x.dim()
        reduce_dims = tuple(d for d in range(x.dim()) if d != dim)

    if symmetric:
        amax = x.abs().amax(dim=reduce_dims, keepdim=True)
        scale = torch.where(amax > 0, amax / 127, torch.ones_like(amax))
        zero_point = torch.zeros_like(scale, dtype=torch.int64)
        q = torch.clamp(x / scale, -127, 127).to(torch.int8)
    else:
        x_min = x.amin(dim=reduce_dims, keepdim=True).clamp(max=0)
        x_max = x.amax(dim=reduce_dims, keepdim=True).clamp(min=0)
        scale = (x_max - x_min) / 255
        scale = torch.where(scale > 0, scale, torch.ones_like(scale))
        zero_point = torch.clamp(-128 - torch.round(x_min / scale), -128, 127).to(torch.int64)
        q = torch.clamp(x / scale + zero_point, -128, 127).to(torch.int8)

    if dim is None:
        return q, scale.reshape(()), zero_point.reshape(())
    return q, scale.reshape(-1), zero_point.reshape(-1)
