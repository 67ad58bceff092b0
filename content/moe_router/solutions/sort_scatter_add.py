# kata: moe-router
import torch


def top_k_router(router_logits, k=2):
    T, E = router_logits.shape
    x = router_logits.float() if router_logits.dtype in (torch.float16, torch.bfloat16) else router_logits
    order = torch.sort(x, dim=-1, descending=True).indices
    experts = order[:, :k]
    weights = torch.softmax(x.gather(-1, experts), dim=-1)
    counts = torch.zeros(E, dtype=x.dtype, device=x.device).scatter_add(
        0, experts.reshape(-1), torch.ones(T * k, dtype=x.dtype, device=x.device))
    f = counts / T
    P = torch.softmax(x, dim=-1).mean(dim=0)
    aux = E * torch.dot(f, P)
    return weights.to(router_logits.dtype), experts, aux.to(router_logits.dtype)
