# kata: moe-router
import torch
import torch.nn.functional as F


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    dtype = router_logits.dtype
    logits = router_logits if dtype == torch.float64 else router_logits.float()

    scores = logits.softmax(dim=-1)
    top_scores, experts = scores.topk(k, dim=-1)
    weights = top_scores / top_scores.sum(dim=-1, keepdim=True)

    # dense [T, E] view of the routing: the gate value where an expert was chosen, 0 elsewhere
    gates = torch.zeros_like(scores).scatter(1, experts, weights)
    chosen = torch.zeros_like(scores).scatter(1, experts, 1.0)
    f = chosen.mean(dim=0)
    P = gates.mean(dim=0)
    aux_loss = E * torch.dot(f, P)

    return weights.to(dtype), experts, aux_loss.to(dtype)
