# kata: int8-quant
import torch


def quantize_int8(x, dim=None, symmetric=True):
    if dim is None:
        axes = list(range(x.dim()))
    else:
        axes = [a for a in range(x.dim()) if a != dim]

    if symmetric:
        s = x.abs().amax(dim=axes, keepdim=True) / 127.0
        s = torch.where(s == 0, torch.ones_like(s), s)
        zp = torch.zeros_like(s, dtype=torch.long)
        q = torch.round(x / s).clamp(-127, 127)
    else:
        mn = torch.clamp(x.amin(dim=axes, keepdim=True), max=0.0)
        mx = torch.clamp(x.amax(dim=axes, keepdim=True), min=0.0)
        s = (mx - mn) / 255.0
        s = torch.where(s == 0, torch.ones_like(s), s)
        zp = (-128 - torch.round(mn / s)).clamp(-128, 127).long()
        q = (torch.round(x / s) + zp).clamp(-128, 127)

    out_shape = () if dim is None else (-1,)
    return q.to(torch.int8), s.reshape(out_shape), zp.reshape(out_shape)
