# kata: moe-router
# why: experts returned in ascending index order (topk with sorted=False, then sort)
# mistake: experts_ascending
import torch
import torch.nn.functional as F


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    p = torch.softmax(router_logits.double(), dim=-1)
    top_p, experts = torch.topk(p, k, dim=-1); experts, order = experts.sort(-1); top_p = top_p.gather(-1, order)
    weights = top_p / top_p.sum(-1, keepdim=True)
    f = F.one_hot(experts, E).sum(1).double().mean(0)
    P = p.mean(0)
    aux = E * (f * P).sum()
    return weights.to(router_logits.dtype), experts, aux.to(router_logits.dtype)
