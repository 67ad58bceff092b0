# kata: rope
# why: Meta LLaMA's complex pairing (2i, 2i+1), and the positions start at 0 whatever start_pos is: the pairing is the first thing to fix
# mistake: interleaved_pairing
import torch


def apply_rope(x, start_pos: int = 0, base: float = 10000.0):
    L, D = x.shape[-2], x.shape[-1]
    freqs = 1.0 / (base ** (torch.arange(0, D, 2, device=x.device)[: D // 2].float() / D))
    t = torch.arange(L, device=x.device, dtype=torch.float32)
    freqs_cis = torch.polar(torch.ones(L, D // 2, device=x.device), torch.outer(t, freqs))
    xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
    out = torch.view_as_real(xc * freqs_cis).flatten(-2)
    return out.type_as(x)
