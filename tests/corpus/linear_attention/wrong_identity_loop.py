# kata: linear-attention
# why: raw q and k in a per-position loop (no feature map): denominators cross 0 and the summation order decides those outputs, so no variant matches it (left unnamed rather than misnamed)
# mistake: none
import torch


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    B, H, L, D = q.shape
    kv = torch.zeros(B, H, D, v.shape[-1], dtype=q.dtype, device=q.device)
    ks = torch.zeros(B, H, D, dtype=q.dtype, device=q.device)
    if state is not None:
        kv, ks = kv + state[0], ks + state[1]
    rows = []
    for t in range(L):
        kv = kv + k[:, :, t].unsqueeze(-1) @ v[:, :, t].unsqueeze(-2)
        ks = ks + k[:, :, t]
        qt = q[:, :, t].unsqueeze(-2)
        rows.append((qt @ kv).squeeze(-2) / ((qt @ ks.unsqueeze(-1)).squeeze(-1) + eps))
    return torch.stack(rows, 2), (kv, ks)
