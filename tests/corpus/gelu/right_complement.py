# kata: gelu
# why: x · (1 − Φ(−x)), Φ(−x) = erfc(x/√2)/2; the tanh form via promote_types and a tensor constant on x's device
import math

import torch


def gelu(x, approximate="none"):
    if approximate not in {"none", "tanh"}:
        raise ValueError("approximate must be 'none' or 'tanh'")
    dt = torch.promote_types(x.dtype, torch.float32)
    v = x.to(dt)
    if approximate == "tanh":
        k = torch.tensor(math.sqrt(2 / math.pi), dtype=dt, device=x.device)
        out = v * 0.5 * (1 + torch.tanh(k * v * (1 + 0.044715 * v * v)))
    else:
        out = v * (1 - 0.5 * torch.erfc(v / math.sqrt(2)))
    return out.to(x.dtype)
