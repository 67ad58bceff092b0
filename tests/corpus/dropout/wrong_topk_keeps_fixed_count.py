# kata: dropout
# why: the k = round((1 - p) n) largest uniforms are kept: always the same number of survivors
# mistake: exact_keep_count
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError(f"p={p}")
    if not training or p == 0:
        return x
    n = x.numel()
    k = int(round((1 - p) * n))
    scores = torch.rand(n, generator=generator, device=x.device)
    keep = torch.zeros(n, dtype=torch.bool, device=x.device)
    keep[scores.topk(k).indices] = True
    if k == 0:
        return torch.zeros_like(x)
    return (x.reshape(-1) * keep / (1 - p)).reshape(x.shape)
