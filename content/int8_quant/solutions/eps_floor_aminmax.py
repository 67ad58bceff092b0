# kata: int8-quant
import torch

EPS = torch.finfo(torch.float32).eps


def quantize_int8(x, dim=None, symmetric=True):
    if dim is None:
        flat = x.reshape(1, -1)
    else:
        flat = x.movedim(dim, 0).reshape(x.shape[dim], -1)  # [C, rest]
    mn, mx = torch.aminmax(flat, dim=1)
    mn, mx = torch.minimum(mn, torch.zeros_like(mn)), torch.maximum(mx, torch.zeros_like(mx))
    if symmetric:
        scale = (torch.maximum(-mn, mx) / 127).clamp(min=EPS)
        zero_point = torch.zeros_like(mn, dtype=torch.long)
        qmin = -127
    else:
        scale = ((mx - mn) / 255).clamp(min=EPS)
        zero_point = torch.clamp(-128 - torch.round(mn / scale), -128, 127).long()
        qmin = -128
    view = [1] * x.dim()
    if dim is not None:
        view[dim] = -1
    q = torch.round(x / scale.reshape(view)) + zero_point.reshape(view)
    q = q.clamp(qmin, 127).to(torch.int8)
    if dim is None:
        return q, scale[0], zero_point[0]
    return q, scale, zero_point
