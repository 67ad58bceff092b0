# kata: linear-attention
# why: fast-transformers' RecurrentLinearAttention update: Si += ... when nothing needs a gradient, which writes into the caller's state
# mistake: state_updated_in_place
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    N, H, L, D = q.shape
    M = v.shape[-1]
    Q, K = F.elu(q) + 1, F.elu(k) + 1
    if state is None:
        Si, Zi = q.new_zeros((N, H, D, M)), q.new_zeros((N, H, D))
    else:
        Si, Zi = state
    outs = []
    for t in range(L):
        Kt, Vt = K[:, :, t], v[:, :, t]
        if Kt.grad_fn is not None or Vt.grad_fn is not None:
            Zi = Zi + Kt
            Si = Si + torch.einsum("nhd,nhm->nhdm", Kt, Vt)
        else:
            Zi += Kt
            Si += torch.einsum("nhd,nhm->nhdm", Kt, Vt)
        Z = 1.0 / (torch.einsum("nhd,nhd->nh", Q[:, :, t], Zi) + eps)
        outs.append(torch.einsum("nhd,nhdm,nh->nhm", Q[:, :, t], Si, Z))
    return torch.stack(outs, 2), (Si, Zi)
