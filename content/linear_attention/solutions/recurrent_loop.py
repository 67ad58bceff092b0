# kata: linear-attention
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps: float = 1e-6):
    B, H, L, D = q.shape
    Dv = v.shape[-1]
    phi_q, phi_k = F.elu(q) + 1, F.elu(k) + 1
    if state is None:
        S = q.new_zeros(B, H, D, Dv)
        z = q.new_zeros(B, H, D)
    else:
        S, z = state
    outs = []
    for i in range(L):
        S = S + phi_k[:, :, i, :, None] * v[:, :, i, None, :]  # [B, H, D, Dv]
        z = z + phi_k[:, :, i]  # [B, H, D]
        num = (phi_q[:, :, i, :, None] * S).sum(-2)  # [B, H, Dv]
        den = (phi_q[:, :, i] * z).sum(-1, keepdim=True) + eps  # [B, H, 1]
        outs.append(num / den)
    return torch.stack(outs, dim=2), (S, z)
