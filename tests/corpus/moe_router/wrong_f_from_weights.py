# kata: moe-router
# why: the weights as the softmax over all experts gathered at the top-k, the aux loss's f_e from the weights
# mistake: none
import torch
import torch.nn.functional as F


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    p = torch.softmax(router_logits.double(), dim=-1)
    top_p, experts = torch.topk(p, k, dim=-1)
    weights = top_p / top_p.sum(-1, keepdim=True)
    f = torch.zeros_like(p).scatter(-1, experts, weights).mean(0)
    P = p.mean(0)
    aux = E * (f * P).sum()
    return weights.to(router_logits.dtype), experts, aux.to(router_logits.dtype)
