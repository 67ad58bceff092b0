# kata: linear-attention
# why: TorchCode's non-causal form phi(Q)(phi(K)^T V): every position sees the whole call
# mistake: not_causal
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    phi_q = F.elu(q) + 1
    phi_k = F.elu(k) + 1
    kv = phi_k.transpose(-2, -1) @ v  # [B, H, D, Dv]
    ksum = phi_k.sum(dim=-2)  # [B, H, D]
    if state is not None:
        kv = kv + state[0]
        ksum = ksum + state[1]
    num = phi_q @ kv
    den = (phi_q * ksum.unsqueeze(-2)).sum(-1, keepdim=True) + eps
    return num / den, (kv, ksum)
