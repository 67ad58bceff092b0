# kata: rope
import torch


def precompute_freqs_cis(dim, end, start, theta, device):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2, device=device)[: (dim // 2)].float() / dim))
    t = torch.arange(start, end, device=device, dtype=torch.float32)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)  # complex64


def apply_rope(x, start_pos=0, base=10000.0):
    *_, L, D = x.shape
    freqs_cis = precompute_freqs_cis(D, start_pos + L, start_pos, base, x.device)
    ctype = torch.complex128 if x.dtype == torch.float64 else torch.complex64
    xr = x.to(torch.float64 if x.dtype == torch.float64 else torch.float32)
    xc = torch.complex(xr[..., : D // 2], xr[..., D // 2 :])
    out = xc * freqs_cis.to(ctype)
    return torch.cat([out.real, out.imag], dim=-1).type_as(x)
