# kata: linear-attention
# why: the exact feature map where(x > 0, x + 1, exp(x)), sums accumulated in float64 and cast back to q's dtype
import torch


def feature(x):
    return torch.where(x > 0, x + 1, torch.exp(torch.clamp(x, max=0.0)))


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    dtype = q.dtype
    fq, fk, v64 = feature(q.double()), feature(k.double()), v.double()
    S = torch.einsum("bhld,bhle->bhlde", fk, v64).cumsum(2)
    z = fk.cumsum(2)
    if state is not None:
        S = S + state[0].double()[:, :, None]
        z = z + state[1].double()[:, :, None]
    num = (fq[..., None] * S).sum(-2)
    den = (fq * z).sum(-1, keepdim=True) + eps
    return (num / den).to(dtype), (S[:, :, -1].to(dtype), z[:, :, -1].to(dtype))
