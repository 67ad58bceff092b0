# kata: moe-router
# why: token by token in float32 (.float() on each row), the weights and the loss returned as float32
# mistake: result_left_in_float32
import torch


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    rows, picks = [], []
    counts = torch.zeros(E)
    mean_p = torch.zeros(E)
    for t in range(T):
        p = torch.softmax(router_logits[t].float(), dim=0)
        vals, idx = p.topk(k)
        rows.append(vals / vals.sum())
        picks.append(idx)
        counts[idx] += 1.0
        mean_p = mean_p + p / T
    aux = E * ((counts / T) * mean_p).sum()
    return torch.stack(rows), torch.stack(picks), aux
