# kata: linear-attention
# why: masked quadratic form with tril(diagonal=-1): a position does not see its own key
# mistake: current_token_excluded
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    L = q.shape[-2]
    fq, fk = F.elu(q) + 1, F.elu(k) + 1
    a = torch.einsum("bhid,bhjd->bhij", fq, fk)
    a = a * torch.ones(L, L, dtype=q.dtype, device=q.device).tril(diagonal=-1)
    num = torch.einsum("bhij,bhje->bhie", a, v)
    den = a.sum(-1)
    S = torch.einsum("bhjd,bhje->bhde", fk, v)
    z = fk.sum(-2)
    if state is not None:
        num = num + torch.einsum("bhid,bhde->bhie", fq, state[0])
        den = den + torch.einsum("bhid,bhd->bhi", fq, state[1])
        S, z = S + state[0], z + state[1]
    return num / (den + eps)[..., None], (S, z)
