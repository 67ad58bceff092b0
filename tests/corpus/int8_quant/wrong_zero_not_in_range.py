# kata: int8-quant
# why: asymmetric range from min(x) to max(x) without widening it to hold 0
# mistake: zero_not_in_range
import torch


def quantize_int8(x, dim=None, symmetric=True):
    if dim is None:
        red = tuple(range(x.dim()))
    else:
        red = tuple(i for i in range(x.dim()) if i != dim % x.dim())
    if symmetric:
        s = x.abs().amax(red, keepdim=True) / 127
        s = torch.where(s == 0, torch.ones_like(s), s)
        z = torch.zeros_like(s).long()
        q = torch.round(x / s).clamp(-127, 127)
    else:
        mn, mx = x.amin(red, keepdim=True), x.amax(red, keepdim=True)
        s = (mx - mn) / 255
        s = torch.where(s == 0, torch.ones_like(s), s)
        z = torch.clamp(-128 - torch.round(mn / s), -128, 127).long()
        q = torch.clamp(torch.round(x / s) + z, -128, 127)
    out = () if dim is None else (-1,)
    return q.to(torch.int8), s.reshape(out), z.reshape(out)
