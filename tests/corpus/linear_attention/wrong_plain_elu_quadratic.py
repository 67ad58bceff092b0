# kata: linear-attention
# why: F.elu without the + 1 in the quadratic form: phi can be negative and denominators come near 0, where the summation order decides the output (named through the quadratic variant of the slip)
# mistake: elu_without_plus_one
import torch
from torch.nn.functional import elu


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    Q, K = elu(q), elu(k)
    L = q.shape[-2]
    keep = torch.tril(torch.ones(L, L, device=q.device))
    W = torch.einsum("bhid,bhjd->bhij", Q, K) * keep
    num, den = W @ v, W.sum(-1)
    S, z = torch.einsum("bhjd,bhje->bhde", K, v), K.sum(-2)
    if state is not None:
        num = num + Q @ state[0]
        den = den + torch.einsum("bhid,bhd->bhi", Q, state[1])
        S, z = S + state[0], z + state[1]
    return num / (den + eps).unsqueeze(-1), (S, z)
