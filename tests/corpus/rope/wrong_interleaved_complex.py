# kata: rope
# why: Meta's original LLaMA code: view_as_complex on adjacent pairs (2i, 2i+1), the interleaved pairing, not rotate-half
# mistake: interleaved_pairing
import torch


def apply_rope(x, start_pos=0, base=10000.0):
    B, H, L, D = x.shape
    freqs = 1.0 / (base ** (torch.arange(0, D, 2, device=x.device)[: (D // 2)].float() / D))
    t = torch.arange(start_pos, start_pos + L, device=x.device).float()
    freqs_cis = torch.polar(torch.ones(L, D // 2, device=x.device), torch.outer(t, freqs))
    xc = torch.view_as_complex(x.float().reshape(B, H, L, D // 2, 2))
    out = torch.view_as_real(xc * freqs_cis).flatten(3)
    return out.type_as(x)
