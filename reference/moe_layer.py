"""A capacity-free top-k mixture-of-experts feed-forward layer.

Jiang et al., "Mixtral of Experts" (2024), eq. 1-2: y = Σ_{i=0}^{n-1} Softmax(Top2(x·W_g))_i · SwiGLU_i(x),
written as transformers' `MixtralSparseMoeBlock` (4.x): a router `gate`, a list of SwiGLU `experts` with
Mixtral's checkpoint names (w1 gate, w3 up, w2 down), a loop over experts that gathers the tokens routed to
each (`one_hot` mask, `where`) and scatter-adds their weighted outputs back (`index_add_`). The k chosen
probabilities are renormalised (Mixtral) or kept raw (Qwen2-MoE / Qwen3-MoE with norm_topk_prob=False).
No capacity factor, no jitter, no shared expert, no aux loss: the router logits are returned for it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Expert(nn.Module):
    """One expert: the SwiGLU feed-forward block, w2(silu(w1 x) ⊙ w3 x)."""

    def __init__(self, dim, hidden_dim):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)  # gate
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)  # up
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)  # down

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class MoELayer(nn.Module):
    def __init__(self, dim, hidden_dim, num_experts, top_k=2, norm_topk_prob=True):
        super().__init__()
        assert 1 <= top_k <= num_experts, f"top_k must be in [1, {num_experts}], got {top_k}"
        self.num_experts, self.top_k, self.norm_topk_prob = num_experts, top_k, norm_topk_prob
        self.gate = nn.Linear(dim, num_experts, bias=False)  # the router, weight (E, C)
        self.experts = nn.ModuleList(Expert(dim, hidden_dim) for _ in range(num_experts))

    def forward(self, x):
        """x (B, L, C) -> out (B, L, C), router_logits (B·L, E)."""
        B, L, C = x.shape
        h = x.reshape(B * L, C)  # (T, C), tokens in (b, l) order
        router_logits = self.gate(h)  # (T, E)
        p = F.softmax(router_logits, dim=-1)  # (T, E)
        weights, chosen = torch.topk(p, self.top_k, dim=-1)  # (T, k) each, most probable first
        if self.norm_topk_prob:
            weights = weights / weights.sum(dim=-1, keepdim=True)  # (T, k), sums to 1 per token

        out = torch.zeros_like(h)  # (T, C)
        expert_mask = F.one_hot(chosen, self.num_experts).permute(2, 1, 0)  # (E, k, T)
        for e, expert in enumerate(self.experts):
            slot, token = torch.where(expert_mask[e])  # the (slot, token) pairs routed to expert e
            if token.numel() == 0:
                continue  # an expert no token chose: its weights get no gradient (None, read as zeros)
            y = expert(h[token]) * weights[token, slot, None]  # (n_e, C)
            out.index_add_(0, token, y)  # add: a token's k experts all contribute
        return out.reshape(B, L, C), router_logits
