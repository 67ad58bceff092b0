# kata: linear-attention
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps: float = 1e-6):
    B, H, L, D = q.shape
    Dv = v.shape[-1]
    phi_q, phi_k = F.elu(q) + 1, F.elu(k) + 1
    if state is None:
        S, z = q.new_zeros(B, H, D, Dv), q.new_zeros(B, H, D)
    else:
        S, z = state
    outs = []
    for i in range(L):
        num = torch.einsum("bhd,bhde->bhe", phi_q[:, :, i], S)
        den = torch.einsum("bhd,bhd->bh", phi_q[:, :, i], z) + eps
        outs.append(num / den[..., None])
        S = S + torch.einsum("bhd,bhe->bhde", phi_k[:, :, i], v[:, :, i])
        z = z + phi_k[:, :, i]
    return torch.stack(outs, dim=2), (S, z)
