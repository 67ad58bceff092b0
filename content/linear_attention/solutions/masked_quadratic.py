# kata: linear-attention
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps: float = 1e-6):
    L = q.shape[2]
    fq = F.elu(q) + 1
    fk = F.elu(k) + 1
    causal = torch.ones(L, L, dtype=torch.bool, device=q.device).tril()
    weights = (fq @ fk.transpose(-2, -1)).masked_fill(~causal, 0.0)  # [B, H, L, L]
    num = weights @ v
    den = weights.sum(-1)
    S = fk.transpose(-2, -1) @ v  # [B, H, D, Dv]
    z = fk.sum(2)
    if state is not None:
        S0, z0 = state
        num = num + fq @ S0
        den = den + (fq * z0.unsqueeze(2)).sum(-1)
        S = S + S0
        z = z + z0
    return num / (den + eps).unsqueeze(-1), (S, z)
