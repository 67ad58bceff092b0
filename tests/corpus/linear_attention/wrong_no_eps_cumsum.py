# kata: linear-attention
# why: the paper's formula as written: no eps in the denominator
# mistake: eps_ignored
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    Q, K = F.elu(q) + 1, F.elu(k) + 1
    KV = torch.cumsum(K.unsqueeze(-1) * v.unsqueeze(-2), dim=2)
    Ksum = torch.cumsum(K, dim=2)
    if state:
        KV = KV + state[0][:, :, None]
        Ksum = Ksum + state[1][:, :, None]
    out = (Q.unsqueeze(-1) * KV).sum(-2) / (Q * Ksum).sum(-1, keepdim=True)
    return out, (KV[:, :, -1], Ksum[:, :, -1])
