# kata: linear-attention
# why: the denominator is the sum of z's entries, not its dot product with phi(q)
# mistake: normaliser_not_dotted
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    fq, fk = F.elu(q) + 1, F.elu(k) + 1
    s = torch.einsum("bhld,bhle->bhlde", fk, v).cumsum(dim=2)
    z = fk.cumsum(dim=2)
    if state is not None:
        s, z = s + state[0].unsqueeze(2), z + state[1].unsqueeze(2)
    out = torch.einsum("bhld,bhlde->bhle", fq, s) / (z.sum(dim=-1, keepdim=True) + eps)
    return out, (s[:, :, -1], z[:, :, -1])
