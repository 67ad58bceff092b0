# kata: linear-attention
# why: F.elu without the + 1, in the recurrent loop: phi can be negative, the denominator can vanish
# mistake: elu_without_plus_one
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    B, H, L, D = q.shape
    if state is None:
        state = (torch.zeros(B, H, D, v.shape[-1], dtype=q.dtype, device=q.device),
                 torch.zeros(B, H, D, dtype=q.dtype, device=q.device))
    S, z = state
    ys = []
    for i in range(L):
        phi_k = F.elu(k[:, :, i])
        phi_q = F.elu(q[:, :, i])
        S = S + torch.einsum("bhd,bhe->bhde", phi_k, v[:, :, i])
        z = z + phi_k
        ys.append(torch.einsum("bhd,bhde->bhe", phi_q, S) / (torch.einsum("bhd,bhd->bh", phi_q, z) + eps)[..., None])
    return torch.stack(ys, dim=2), (S, z)
