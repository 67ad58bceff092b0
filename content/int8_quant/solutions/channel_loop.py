# kata: int8-quant
import torch


def _qparams(row, symmetric):
    if symmetric:
        amax = row.abs().max()
        scale = amax / 127 if amax > 0 else torch.ones((), dtype=row.dtype, device=row.device)
        return scale, 0
    lo = torch.clamp(row.min(), max=0)
    hi = torch.clamp(row.max(), min=0)
    if hi == lo:
        return torch.ones((), dtype=row.dtype, device=row.device), -128
    scale = (hi - lo) / 255
    zp = int(torch.clamp(-128 - torch.round(lo / scale), -128, 127))
    return scale, zp


def quantize_int8(x, dim=None, symmetric=True):
    lo_q = -127 if symmetric else -128
    if dim is None:
        scale, zp = _qparams(x.reshape(-1), symmetric)
        q = torch.clamp(torch.round(x / scale) + zp, lo_q, 127).to(torch.int8)
        return q, scale, torch.tensor(zp, dtype=torch.int64, device=x.device)
    moved = x.movedim(dim, 0)
    rows, scales, zps = [], [], []
    for c in range(moved.shape[0]):
        scale, zp = _qparams(moved[c].reshape(-1), symmetric)
        rows.append(torch.clamp(torch.round(moved[c] / scale) + zp, lo_q, 127))
        scales.append(scale)
        zps.append(zp)
    q = torch.stack(rows).movedim(0, dim).to(torch.int8)
    return q, torch.stack(scales), torch.tensor(zps, dtype=torch.int64, device=x.device)
