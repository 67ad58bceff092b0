# kata: moe-router
# why: topk(largest=False): the k least likely experts are chosen
# mistake: least_likely_experts
import torch
import torch.nn.functional as F


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    x = router_logits.float() if router_logits.dtype in (torch.float16, torch.bfloat16) else router_logits
    probs = F.softmax(x, dim=-1)
    top_p, experts = torch.topk(probs, k, dim=-1, largest=False)
    weights = top_p / top_p.sum(dim=-1, keepdim=True)
    f = F.one_hot(experts, E).to(probs.dtype).sum(dim=1).mean(dim=0)
    P = probs.mean(dim=0)
    aux = E * torch.sum(f * P)
    return weights.to(router_logits.dtype), experts, aux.to(router_logits.dtype)
