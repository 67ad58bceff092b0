# kata: int8-quant
# why: always quantises per tensor: dim is accepted and never used
# mistake: dim_ignored
import torch


def quantize_int8(x, dim=None, symmetric=True):
    if symmetric:
        scale = x.abs().max() / 127
        if scale == 0:
            scale = torch.ones_like(scale)
        q = torch.round(x / scale).clamp(-127, 127).to(torch.int8)
        return q, scale, torch.zeros((), dtype=torch.int64, device=x.device)
    lo, hi = min(x.min(), 0), max(x.max(), 0)
    lo = torch.as_tensor(lo, dtype=x.dtype, device=x.device)
    hi = torch.as_tensor(hi, dtype=x.dtype, device=x.device)
    scale = (hi - lo) / 255
    if scale == 0:
        scale = torch.ones_like(scale)
    zp = torch.clamp(-128 - torch.round(lo / scale), -128, 127)
    q = torch.clamp(torch.round(x / scale) + zp, -128, 127).to(torch.int8)
    return q, scale, zp.to(torch.int64)
