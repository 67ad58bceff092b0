# kata: int8-quant
# why: vectorised with keepdim reductions over every other axis and torch.round, as the contract writes it
import torch


def quantize_int8(x, dim=None, symmetric=True):
    if dim is None:
        axes = tuple(range(x.dim()))
    else:
        dim = dim % x.dim()
        axes = tuple(d for d in range(x.dim()) if d != dim)
    if symmetric:
        scale = x.abs().amax(dim=axes, keepdim=True) / 127.0
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zero_point = torch.zeros(scale.shape, dtype=torch.int64, device=x.device)
        q = torch.round(x / scale).clamp(-127, 127)
    else:
        x_min = torch.clamp(x.amin(dim=axes, keepdim=True), max=0.0)
        x_max = torch.clamp(x.amax(dim=axes, keepdim=True), min=0.0)
        scale = (x_max - x_min) / 255.0
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zero_point = (-128 - torch.round(x_min / scale)).clamp(-128, 127).to(torch.int64)
        q = (torch.round(x / scale) + zero_point).clamp(-128, 127)
    if dim is None:
        return q.to(torch.int8), scale.squeeze(), zero_point.squeeze()
    return q.to(torch.int8), scale.flatten(), zero_point.flatten()
