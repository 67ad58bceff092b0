# kata: linear-attention
# why: F.elu without the + 1, written chunkwise (a quadratic block inside each chunk of 4, the running sums between chunks): phi can be negative, denominators come near 0 and this third summation order decides those outputs, so no variant matches it (left unnamed rather than misnamed)
# mistake: none
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    B, H, L, D = q.shape
    Dv = v.shape[-1]
    fq, fk = F.elu(q), F.elu(k)
    if state is None:
        S = q.new_zeros(B, H, D, Dv)
        z = q.new_zeros(B, H, D)
    else:
        S, z = state
    outs = []
    for start in range(0, L, 4):
        qc, kc, vc = fq[:, :, start:start + 4], fk[:, :, start:start + 4], v[:, :, start:start + 4]
        n = qc.shape[2]
        mask = torch.ones(n, n, dtype=q.dtype, device=q.device).tril()
        scores = (qc @ kc.transpose(-1, -2)) * mask
        num = qc @ S + scores @ vc
        den = (qc * z.unsqueeze(2)).sum(-1) + scores.sum(-1)
        outs.append(num / (den.unsqueeze(-1) + eps))
        S = S + kc.transpose(-1, -2) @ vc
        z = z + kc.sum(2)
    return torch.cat(outs, dim=2), (S, z)
