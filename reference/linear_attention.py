"""Causal linear attention with a carried state.

Katharopoulos et al., "Transformers are RNNs: Fast Autoregressive Transformers with Linear Attention"
(ICML 2020), eq. 4-12, with fast-transformers' feature map and eps (`CausalLinearAttention`,
`RecurrentLinearAttention`): φ(x) = elu(x) + 1 on queries and keys, no 1/√D scale;
S_i = S0 + Σ_{j≤i} φ(k_j) v_jᵀ, z_i = z0 + Σ_{j≤i} φ(k_j) (position i included), and
out_i = φ(q_i)ᵀ S_i / (φ(q_i)·z_i + eps). The returned state continues the sums in a later call.
"""
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps: float = 1e-6):
    """q, k [B, H, L, D], v [B, H, L, Dv], state None or (S0 [B, H, D, Dv], z0 [B, H, D])
    -> out [B, H, L, Dv], (S [B, H, D, Dv], z [B, H, D])."""
    B, H, L, D = q.shape
    assert L >= 1 and k.shape == q.shape and v.shape[:3] == q.shape[:3]
    phi_q, phi_k = F.elu(q) + 1, F.elu(k) + 1  # [B, H, L, D], > 0
    kv = torch.einsum("bhld,bhle->bhlde", phi_k, v)  # [B, H, L, D, Dv]: φ(k_j) v_jᵀ
    S = kv.cumsum(dim=2)  # [B, H, L, D, Dv]: Σ_{j≤i}, position i included
    z = phi_k.cumsum(dim=2)  # [B, H, L, D]
    if state is not None:
        S0, z0 = state
        S = S + S0.unsqueeze(2)  # a new tensor: the caller's state is left as it was
        z = z + z0.unsqueeze(2)
    numerator = torch.einsum("bhld,bhlde->bhle", phi_q, S)  # [B, H, L, Dv]
    denominator = torch.einsum("bhld,bhld->bhl", phi_q, z) + eps  # [B, H, L]: eps once, after the dot
    out = numerator / denominator.unsqueeze(-1)
    return out, (S[:, :, -1], z[:, :, -1])
