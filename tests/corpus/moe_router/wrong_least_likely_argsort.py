# kata: moe-router
# why: argsort is ascending: its first k columns are the k least likely experts
# mistake: least_likely_experts
import torch


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    work = torch.promote_types(router_logits.dtype, torch.float32)
    p = torch.softmax(router_logits.to(work), dim=1)
    experts = torch.argsort(p, dim=1)[:, :k]
    chosen = torch.gather(p, 1, experts)
    weights = chosen / chosen.sum(1, keepdim=True)
    counts = torch.zeros(E, dtype=work, device=router_logits.device)
    counts.index_add_(0, experts.reshape(-1), torch.ones(T * k, dtype=work, device=router_logits.device))
    aux = E * (counts / T * p.mean(0)).sum()
    return weights.to(router_logits.dtype), experts, aux.to(router_logits.dtype)
