"""Top-k routing of tokens to experts, with the load-balancing auxiliary loss.

Fedus et al., "Switch Transformers" (2021), eq. 4-6: loss = E · Σ_e f_e · P_e (the paper's weight α
is the caller's), where f_e is the fraction of tokens dispatched to expert e and P_e the mean router
probability of e; generalised to top-k as Mixtral and transformers' `load_balancing_loss_func` do:
f_e counts the tokens that sent one of their k slots to e (so Σ_e f_e = k), and the k chosen
probabilities are renormalised (Jiang et al., "Mixtral of Experts" (2024), eq. 2).
"""
import torch
import torch.nn.functional as F


def top_k_router(router_logits, k=2):
    """router_logits (T, E). Returns weights (T, k), experts (T, k) int64, aux_loss (0-dim)."""
    T, E = router_logits.shape
    assert 1 <= k <= E, f"k must be in [1, {E}], got {k}"
    wide = torch.promote_types(router_logits.dtype, torch.float32)  # float32 math for half inputs, as Mixtral
    p = torch.softmax(router_logits.to(wide), dim=-1)  # (T, E)
    top_p, experts = torch.topk(p, k, dim=-1)  # (T, k), most probable first
    weights = top_p / top_p.sum(dim=-1, keepdim=True)  # (T, k): renormalised over the chosen experts

    chosen = F.one_hot(experts, E).sum(dim=1).to(p.dtype)  # (T, E): 1 where the token sent a slot to e
    f = chosen.mean(dim=0)  # (E,): fraction of tokens routed to e, no gradient; sums to k
    P = p.mean(dim=0)  # (E,): mean router probability, differentiable
    aux_loss = E * (f * P).sum()
    dtype = router_logits.dtype
    return weights.to(dtype), experts, aux_loss.to(dtype)
