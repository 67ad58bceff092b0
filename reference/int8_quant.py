"""INT8 quantisation: symmetric (absmax) and asymmetric (affine), per-tensor or per-channel.

Symmetric is the absmax scheme of LLM.int8() (Dettmers et al. 2022, §2.1, eq. 1: 127 levels a
side) and SmoothQuant (Xiao et al. 2023, §2): scale = max|x| / 127, zero point 0, q on [-127, 127]
(torch.ao's observers with quant_min = -127, quant_max = 127). Asymmetric is torch.ao's affine
qint8 scheme (`MinMaxObserver._calculate_qparams`, `quantize_per_tensor`): the range is widened to
hold 0 so that 0 is exact, scale = (hi - lo) / 255, zero_point = -128 - round(lo / scale), clamped,
and q = clamp(round(x / scale) + zero_point, -128, 127). round is half-to-even (torch.round).
A slice whose range is 0 (all zeros) gets scale 1: q does not depend on it, and 0 / 0 is avoided.
"""
import torch

QMIN, QMAX = -128, 127


def quantize_int8(x, dim=None, symmetric=True):
    """x: float32 or float64. Returns q (int8, x's shape), scale (x's dtype; 0-dim, or [C] with
    C = x.shape[dim]) and zero_point (int64, scale's shape)."""
    assert x.dtype in (torch.float32, torch.float64), f"x must be float32 or float64, got {x.dtype}"
    assert x.dim() >= 1, "x must have at least one dim"
    if dim is None:
        others = tuple(range(x.dim()))  # per-tensor: statistics over everything
    else:
        assert x.dim() >= 2, f"per-channel needs rank >= 2, got rank {x.dim()}"
        assert -x.dim() <= dim < x.dim(), f"dim {dim} is out of range for rank {x.dim()}"
        dim = dim % x.dim()
        others = tuple(d for d in range(x.dim()) if d != dim)  # per-channel: statistics over every other axis

    if symmetric:
        absmax = x.abs().amax(dim=others, keepdim=True)  # [1, .., C, .., 1]
        scale = absmax / 127
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)  # an all-zero slice
        zero_point = torch.zeros_like(scale, dtype=torch.int64)
        q = torch.clamp(torch.round(x / scale), -127, 127)
    else:
        lo = x.amin(dim=others, keepdim=True).clamp(max=0)  # the range always holds 0
        hi = x.amax(dim=others, keepdim=True).clamp(min=0)
        scale = (hi - lo) / 255
        scale = torch.where(scale == 0, torch.ones_like(scale), scale)
        zero_point = torch.clamp(QMIN - torch.round(lo / scale), QMIN, QMAX).to(torch.int64)
        q = torch.clamp(torch.round(x / scale) + zero_point, QMIN, QMAX)

    shape = (-1,) if dim is not None else ()  # [C] per channel, 0-dim per tensor
    return q.to(torch.int8), scale.reshape(shape), zero_point.reshape(shape)
