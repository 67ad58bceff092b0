# kata: moe-router
import torch
import torch.nn.functional as F


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    compute_dtype = torch.float64 if router_logits.dtype == torch.float64 else torch.float32

    probs = F.softmax(router_logits, dim=-1, dtype=compute_dtype)  # [T, E]
    routing_weights, selected_experts = torch.topk(probs, k, dim=-1)  # [T, k], most probable first

    # load balancing: fraction of tokens routed to each expert times its mean probability
    expert_mask = F.one_hot(selected_experts, num_classes=E).to(compute_dtype)  # [T, k, E]
    tokens_per_expert = expert_mask.sum(dim=1).mean(dim=0)  # [E]
    prob_per_expert = probs.mean(dim=0)  # [E]
    aux_loss = E * torch.sum(tokens_per_expert * prob_per_expert)

    dtype = router_logits.dtype
    return routing_weights.to(dtype), selected_experts, aux_loss.to(dtype)
