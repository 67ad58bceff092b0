# kata: linear-attention
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps: float = 1e-6):
    B, H, L, D = q.shape
    Dv = v.shape[-1]
    Q, K = F.elu(q) + 1, F.elu(k) + 1
    if state is None:
        S = torch.zeros(B, H, D, Dv, dtype=q.dtype, device=q.device)
        Z = torch.zeros(B, H, D, dtype=q.dtype, device=q.device)
    else:
        S, Z = state
    outs = []
    for i in range(L):
        if S.requires_grad:
            S = S + K[:, :, i].unsqueeze(-1) * v[:, :, i].unsqueeze(-2)
            Z = Z + K[:, :, i]
        else:
            S += K[:, :, i].unsqueeze(-1) * v[:, :, i].unsqueeze(-2)
            Z += K[:, :, i]
        outs.append((Q[:, :, i].unsqueeze(-1) * S).sum(-2) / ((Q[:, :, i] * Z).sum(-1, keepdim=True) + eps))
    return torch.stack(outs, dim=2), (S, Z)
