# kata: linear-attention
# why: relu as the feature map, in a per-position loop (rows whose keys are all negative get 0/eps)
# mistake: relu_feature_map
import torch


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    B, H, L, D = q.shape
    S = torch.zeros(B, H, D, v.shape[-1], dtype=q.dtype, device=q.device) if state is None else state[0]
    z = torch.zeros(B, H, D, dtype=q.dtype, device=q.device) if state is None else state[1]
    ys = []
    for t in range(L):
        kt, qt = torch.relu(k[:, :, t]), torch.relu(q[:, :, t])
        S = S + kt[..., :, None] * v[:, :, t, None, :]
        z = z + kt
        ys.append(torch.einsum("bhd,bhde->bhe", qt, S) / (torch.einsum("bhd,bhd->bh", qt, z) + eps)[..., None])
    return torch.stack(ys, 2), (S, z)
