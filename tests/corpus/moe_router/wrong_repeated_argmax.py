# kata: moe-router
# why: k rounds of argmax on the probabilities without masking the chosen one: the same expert k times
# mistake: none
import torch
import torch.nn.functional as F


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    p = torch.softmax(router_logits.double(), dim=-1)
    experts = p.argmax(-1, keepdim=True).repeat(1, k); top_p = p.gather(-1, experts)
    weights = top_p / top_p.sum(-1, keepdim=True)
    f = F.one_hot(experts, E).sum(1).double().mean(0)
    P = p.mean(0)
    aux = E * (f * P).sum()
    return weights.to(router_logits.dtype), experts, aux.to(router_logits.dtype)
