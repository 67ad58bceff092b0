# kata: linear-attention
# why: the recurrent loop keeps z but never divides by it
# mistake: no_normaliser
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    b, h, n, d = q.shape
    if state is None:
        kv_state = q.new_zeros(b, h, d, v.shape[-1])
        k_state = q.new_zeros(b, h, d)
    else:
        kv_state, k_state = state
    result = []
    for pos in range(n):
        phi_k = F.elu(k[:, :, pos]) + 1
        kv_state = kv_state + phi_k.unsqueeze(-1) * v[:, :, pos].unsqueeze(-2)
        k_state = k_state + phi_k
        phi_q = F.elu(q[:, :, pos]) + 1
        result.append((phi_q.unsqueeze(-2) @ kv_state).squeeze(-2))
    return torch.stack(result, dim=2), (kv_state, k_state)
