# kata: moe-router
# why: the router computes in float32 (router_logits.float(), as Mixtral does) and never casts the results back
# mistake: result_left_in_float32
import torch
import torch.nn.functional as F


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    routing_weights = F.softmax(router_logits.float(), dim=-1)
    routing_weights_topk, selected_experts = torch.topk(routing_weights, k, dim=-1)
    routing_weights_topk = routing_weights_topk / routing_weights_topk.sum(dim=-1, keepdim=True)
    expert_mask = F.one_hot(selected_experts, E).float()
    tokens_per_expert = expert_mask.sum(dim=1).mean(dim=0)
    aux = E * torch.sum(tokens_per_expert * routing_weights.mean(dim=0))
    return routing_weights_topk, selected_experts, aux
