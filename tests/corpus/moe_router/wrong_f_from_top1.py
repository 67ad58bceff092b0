# kata: moe-router
# why: f_e counted from each token's first choice only
# mistake: f_from_top1
import torch
import torch.nn.functional as F


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    p = torch.softmax(router_logits.double(), dim=-1)
    top_p, experts = torch.topk(p, k, dim=-1)
    weights = top_p / top_p.sum(-1, keepdim=True)
    f = F.one_hot(experts[:, 0], E).double().mean(0)
    P = p.mean(0)
    aux = E * (f * P).sum()
    return weights.to(router_logits.dtype), experts, aux.to(router_logits.dtype)
