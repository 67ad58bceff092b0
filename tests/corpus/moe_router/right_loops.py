# kata: moe-router
# why: a loop over tokens with Python lists, float64 inside, repeated argmax with masking instead of topk
import torch


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    p = torch.softmax(router_logits.double(), dim=-1)
    chosen_rows, weight_rows = [], []
    f = [0.0] * E
    for t in range(T):
        row = p[t]
        taken = []
        masked = row.detach().clone()
        for _ in range(k):
            e = int(torch.argmax(masked))
            taken.append(e)
            masked[e] = -1.0
        picked = row[taken]
        weight_rows.append(picked / picked.sum())
        chosen_rows.append(taken)
        for e in taken:
            f[e] += 1.0 / T
    P = p.mean(dim=0)
    aux = E * (torch.tensor(f, dtype=p.dtype, device=p.device) * P).sum()
    experts = torch.tensor(chosen_rows, dtype=torch.long, device=router_logits.device)
    dtype = router_logits.dtype
    return torch.stack(weight_rows).to(dtype), experts, aux.to(dtype)
