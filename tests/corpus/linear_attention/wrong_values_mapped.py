# kata: linear-attention
# why: the feature map applied to q, k and v alike, in the quadratic form
# mistake: feature_map_on_values
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    phi = lambda t: F.elu(t) + 1  # noqa: E731
    q, k, v = phi(q), phi(k), phi(v)
    L = q.shape[2]
    m = torch.tril(q @ k.transpose(2, 3))
    num = m @ v
    den = m.sum(3, keepdim=True)
    S, z = k.transpose(2, 3) @ v, k.sum(2)
    if state is not None:
        num = num + q @ state[0]
        den = den + q @ state[1].unsqueeze(3)
        S, z = S + state[0], z + state[1]
    assert L >= 1
    return num / (den + eps), (S, z)
