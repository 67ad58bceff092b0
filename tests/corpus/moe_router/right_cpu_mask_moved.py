# kata: moe-router
# why: builds the routing mask on the CPU (index moved there with .cpu()), then moves its mean to the logits' device: slow on a GPU, but right there
import torch


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    p = torch.softmax(router_logits.to(torch.promote_types(router_logits.dtype, torch.float32)), dim=-1)
    top_p, experts = torch.topk(p, k, dim=-1)
    weights = top_p / top_p.sum(-1, keepdim=True)
    mask = torch.zeros(T, E, dtype=p.dtype).scatter(1, experts.cpu(), 1.0)
    aux = E * (mask.mean(0).to(p.device) * p.mean(0)).sum()
    return weights.to(router_logits.dtype), experts, aux.to(router_logits.dtype)
