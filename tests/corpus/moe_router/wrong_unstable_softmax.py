# kata: moe-router
# why: softmax written as exp / sum without subtracting the max: logits of 1e4 overflow to inf and NaN
# mistake: none
import torch
import torch.nn.functional as F


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    e = torch.exp(router_logits)
    p = e / e.sum(-1, keepdim=True)
    top_p, experts = torch.topk(p, k, dim=-1)
    weights = top_p / top_p.sum(-1, keepdim=True)
    f = F.one_hot(experts, E).sum(1).to(p.dtype).mean(0)
    aux = E * (f * p.mean(0)).sum()
    return weights, experts, aux
