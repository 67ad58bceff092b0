# kata: moe-router
import torch
import torch.nn.functional as F


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    wide = torch.float64 if router_logits.dtype == torch.float64 else torch.float
    routing_weights = F.softmax(router_logits, dim=1, dtype=wide)
    routing_weights_topk, selected_experts = torch.topk(routing_weights, k, dim=-1)
    routing_weights_topk /= routing_weights_topk.sum(dim=-1, keepdim=True)
    expert_mask = F.one_hot(selected_experts, E)  # (T, k, E)
    tokens_per_expert = torch.mean(expert_mask.to(wide), dim=0)  # (k, E)
    router_prob_per_expert = torch.mean(routing_weights, dim=0)  # (E,)
    aux = torch.sum(tokens_per_expert * router_prob_per_expert.unsqueeze(0)) * E
    dtype = router_logits.dtype
    return routing_weights_topk.to(dtype), selected_experts, aux.to(dtype)
