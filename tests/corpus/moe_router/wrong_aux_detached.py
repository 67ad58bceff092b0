# kata: moe-router
# why: P_e computed under no_grad: the aux loss has no gradient
# mistake: aux_detached
import torch
import torch.nn.functional as F


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    p = torch.softmax(router_logits.double(), dim=-1)
    top_p, experts = torch.topk(p, k, dim=-1)
    weights = top_p / top_p.sum(-1, keepdim=True)
    f = F.one_hot(experts, E).sum(1).double().mean(0)
    P = p.detach().mean(0)
    aux = E * (f * P).sum()
    return weights.to(router_logits.dtype), experts, aux.to(router_logits.dtype)
