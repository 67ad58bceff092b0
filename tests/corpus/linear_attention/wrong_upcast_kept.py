# kata: linear-attention
# why: upcasts everything to float64 for the long sums and returns it that way
# mistake: float64_returned
import torch
import torch.nn.functional as F


def causal_linear_attention(q, k, v, state=None, eps=1e-6):
    q, k, v = q.double(), k.double(), v.double()
    L = q.shape[2]
    pq, pk = F.elu(q) + 1, F.elu(k) + 1
    if state is None:
        S = torch.zeros(*q.shape[:2], q.shape[-1], v.shape[-1], dtype=torch.float64, device=q.device)
        z = torch.zeros(*q.shape[:2], q.shape[-1], dtype=torch.float64, device=q.device)
    else:
        S, z = state[0].double(), state[1].double()
    outs = []
    for t in range(L):
        S = S + pk[:, :, t, :, None] * v[:, :, t, None, :]
        z = z + pk[:, :, t]
        outs.append((pq[:, :, t, :, None] * S).sum(-2) / ((pq[:, :, t] * z).sum(-1) + eps)[..., None])
    return torch.stack(outs, 2), (S, z)
