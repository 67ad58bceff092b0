# kata: int8-quant
import torch


def _params(values, symmetric):
    """scale and zero point for one slice of x (flattened)."""
    if symmetric:
        bound = values.abs().max()
        scale = bound / 127 if bound > 0 else torch.ones_like(bound)
        return scale, torch.zeros((), dtype=torch.int64, device=values.device)
    lo, hi = values.min(), values.max()
    scale = (hi - lo) / 255
    if scale == 0:
        scale = torch.ones_like(scale)
    zero_point = torch.clamp(-128 - torch.round(lo / scale), -128, 127).long()
    return scale, zero_point


def quantize_int8(x, dim=None, symmetric=True):
    qmin = -127 if symmetric else -128
    if dim is None:
        scale, zero_point = _params(x.flatten(), symmetric)
        q = torch.clamp(torch.round(x / scale) + zero_point, qmin, 127)
        return q.to(torch.int8), scale, zero_point

    channels = x.movedim(dim, 0)  # [C, ...]
    scales, zero_points, rows = [], [], []
    for row in channels:
        scale, zero_point = _params(row.flatten(), symmetric)
        rows.append(torch.clamp(torch.round(row / scale) + zero_point, qmin, 127))
        scales.append(scale)
        zero_points.append(zero_point)
    q = torch.stack(rows).movedim(0, dim).to(torch.int8)
    return q, torch.stack(scales), torch.stack(zero_points)
