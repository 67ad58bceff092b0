# kata: linear-attention
# why: chunkwise over blocks of 3 tokens, but a state handed in is never read (the sums restart at zero)
# mistake: state_ignored
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    B, H, L, D = q.shape
    fq, fk = F.elu(q) + 1, F.elu(k) + 1
    S = q.new_zeros(B, H, D, v.shape[-1])
    z = q.new_zeros(B, H, D)
    outs = []
    for i in range(0, L, 3):
        qc, kc, vc = fq[:, :, i:i + 3], fk[:, :, i:i + 3], v[:, :, i:i + 3]
        a = (qc @ kc.transpose(-1, -2)).tril()
        num = qc @ S + a @ vc
        den = (qc * z[:, :, None]).sum(-1) + a.sum(-1)
        outs.append(num / (den[..., None] + eps))
        S = S + kc.transpose(-1, -2) @ vc
        z = z + kc.sum(2)
    return torch.cat(outs, 2), (S, z)
