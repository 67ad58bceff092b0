# kata: linear-attention
# why: eps added to the key sum z before the dot with phi(q), in a per-head loop
# mistake: eps_inside_dot
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    B, H, L, D = q.shape
    out = torch.zeros(B, H, L, v.shape[-1], dtype=q.dtype, device=q.device)
    S_out = torch.zeros(B, H, D, v.shape[-1], dtype=q.dtype, device=q.device)
    z_out = torch.zeros(B, H, D, dtype=q.dtype, device=q.device)
    fq, fk = F.elu(q) + 1, F.elu(k) + 1
    for b in range(B):
        for h in range(H):
            S = torch.cumsum(fk[b, h, :, :, None] * v[b, h, :, None, :], 0)
            z = torch.cumsum(fk[b, h], 0)
            if state is not None:
                S = S + state[0][b, h]
                z = z + state[1][b, h]
            out[b, h] = torch.einsum("ld,lde->le", fq[b, h], S) / (fq[b, h] * (z + eps)).sum(-1, keepdim=True)
            S_out[b, h], z_out[b, h] = S[-1], z[-1]
    return out, (S_out, z_out)
