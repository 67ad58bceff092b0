# kata: linear-attention
# why: softmax attention's habit: queries divided by sqrt(D) before the feature map
# mistake: scaled_queries
import math

import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    q = q / math.sqrt(q.size(-1))
    L = q.size(2)
    qf, kf = F.elu(q) + 1, F.elu(k) + 1
    tri = torch.ones(L, L, device=q.device, dtype=torch.bool).tril()
    w = (qf @ kf.mT).masked_fill(~tri, 0)
    num, den = w @ v, w.sum(-1)
    S, z = kf.mT @ v, kf.sum(2)
    if state is not None:
        num = num + qf @ state[0]
        den = den + (qf @ state[1][..., None])[..., 0]
        S, z = S + state[0], z + state[1]
    return num / (den[..., None] + eps), (S, z)
