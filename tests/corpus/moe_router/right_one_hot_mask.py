# kata: moe-router
# why: a [T, E] 0/1 mask from scatter, renormalising by dividing by the masked sum, torch.where for the mask
import torch


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    p = torch.softmax(router_logits.float(), dim=-1).to(torch.promote_types(router_logits.dtype, torch.float32))
    if router_logits.dtype == torch.float64:
        p = torch.softmax(router_logits, dim=-1)
    values, experts = torch.topk(p, k, dim=-1, sorted=True)
    mask = torch.zeros_like(p).scatter(1, experts, 1.0)
    kept = torch.where(mask > 0, p, torch.zeros_like(p))
    weights = values / kept.sum(-1, keepdim=True)
    aux = E * (mask.mean(0) * p.mean(0)).sum()
    return weights.to(router_logits.dtype), experts, aux.to(router_logits.dtype)
