# kata: linear-attention
# why: exp as the feature map (a "softmax-like" kernel), per-position loop
# mistake: exp_feature_map
import torch


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    B, H, L, D = q.shape
    S = q.new_zeros(B, H, D, v.shape[-1]) if state is None else state[0]
    z = q.new_zeros(B, H, D) if state is None else state[1]
    out = []
    for i in range(L):
        ek, eq = k[:, :, i].exp(), q[:, :, i].exp()
        S = S + torch.einsum("bhd,bhe->bhde", ek, v[:, :, i])
        z = z + ek
        out.append(torch.einsum("bhd,bhde->bhe", eq, S) / (torch.einsum("bhd,bhd->bh", eq, z)[..., None] + eps))
    return torch.stack(out, dim=2), (S, z)
