# kata: moe-router
import torch


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    x = router_logits.double() if router_logits.dtype == torch.float64 else router_logits.float()

    probs = torch.softmax(x, dim=-1)
    top_probs, experts = probs.topk(k, dim=-1)
    weights = top_probs / top_probs.sum(dim=-1, keepdim=True)

    # how often each expert was picked
    counts = torch.bincount(experts.flatten(), minlength=E).to(x.dtype)
    f = counts / experts.numel()
    P = probs.mean(dim=0)
    aux_loss = E * (f * P).sum()

    return weights.to(router_logits.dtype), experts, aux_loss.to(router_logits.dtype)
