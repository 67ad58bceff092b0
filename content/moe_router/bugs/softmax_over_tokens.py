# kata: moe-router
import torch


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    p = torch.softmax(router_logits.double(), dim=0)

    weight_rows, expert_rows = [], []
    counts = torch.zeros(E, dtype=p.dtype, device=p.device)
    for t in range(T):
        top_vals, top_idx = torch.topk(p[t], k)
        weight_rows.append(top_vals / top_vals.sum())
        expert_rows.append(top_idx)
        counts[top_idx] += 1.0

    f = counts / T  # fraction of tokens that sent a slot to each expert
    P = p.mean(dim=0)
    aux_loss = E * (f * P).sum()

    dtype = router_logits.dtype
    return torch.stack(weight_rows).to(dtype), torch.stack(expert_rows), aux_loss.to(dtype)
