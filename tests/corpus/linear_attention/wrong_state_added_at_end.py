# kata: linear-attention
# why: computes this call's outputs from zero and only adds the given state to the state it returns
# mistake: state_only_in_returned
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    L = q.shape[2]
    a, b = F.elu(q) + 1, F.elu(k) + 1
    scores = torch.einsum("bhid,bhjd->bhij", a, b).masked_fill(
        torch.triu(torch.ones(L, L, dtype=torch.bool, device=q.device), 1), 0.0)
    out = torch.einsum("bhij,bhje->bhie", scores, v) / (scores.sum(-1, keepdim=True) + eps)
    S = torch.einsum("bhjd,bhje->bhde", b, v)
    z = b.sum(2)
    if state is not None:
        S = S + state[0]
        z = z + state[1]
    return out, (S, z)
