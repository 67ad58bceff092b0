# kata: linear-attention
# why: no feature map at all: raw q and k in the sums (the identity kernel)
# mistake: no_feature_map
import torch


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    S = torch.cumsum(torch.einsum("bhld,bhle->bhlde", k, v), dim=2)
    z = torch.cumsum(k, dim=2)
    if state is not None:
        S = S + state[0].unsqueeze(2)
        z = z + state[1].unsqueeze(2)
    out = torch.einsum("bhld,bhlde->bhle", q, S) / (torch.einsum("bhld,bhld->bhl", q, z) + eps).unsqueeze(-1)
    return out, (S[:, :, -1], z[:, :, -1])
