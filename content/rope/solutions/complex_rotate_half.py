# kata: rope
import torch


def apply_rope(x, start_pos=0, base=10000.0):
    B, H, L, D = x.shape
    half = D // 2
    work = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x  # no complex half on the CPU
    inv_freq = 1.0 / (base ** (torch.arange(half, device=x.device, dtype=torch.float32) * 2 / D))
    t = torch.arange(start_pos, start_pos + L, device=x.device, dtype=torch.float32)
    theta = torch.outer(t, inv_freq).to(work.dtype)  # (L, D/2)
    z = torch.complex(work[..., :half], work[..., half:])  # (B, H, L, D/2)
    z = z * torch.complex(torch.cos(theta), torch.sin(theta))
    return torch.cat([z.real, z.imag], dim=-1).to(x.dtype)
