# kata: linear-attention
# why: returns the output alone, as a plain attention function would, and drops the state
# mistake: returns_only_output
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    fq, fk = F.elu(q) + 1, F.elu(k) + 1
    kv = torch.einsum("bhnd,bhne->bhnde", fk, v).cumsum(2)
    ks = fk.cumsum(2)
    if state is not None:
        kv = kv + state[0][:, :, None]
        ks = ks + state[1][:, :, None]
    return torch.einsum("bhnd,bhnde->bhne", fq, kv) / (torch.einsum("bhnd,bhnd->bhn", fq, ks) + eps)[..., None]
