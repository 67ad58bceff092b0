# kata: moe-layer
import torch
import torch.nn as nn
import torch.nn.functional as F


class Expert(nn.Module):
    def __init__(self, dim, hidden_dim):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class MoELayer(nn.Module):
    def __init__(self, dim, hidden_dim, num_experts, top_k=2, norm_topk_prob=True):
        super().__init__()
        self.num_experts = num_experts
        self.top_k = top_k
        self.norm_topk_prob = norm_topk_prob
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList([Expert(dim, hidden_dim) for _ in range(num_experts)])

    def route(self, router_logits):
        probs = F.softmax(router_logits, dim=-1)
        weights, selected = torch.topk(probs, self.top_k, dim=-1)
        if self.norm_topk_prob:
            weights = weights / weights.sum(dim=-1, keepdim=True)
        return weights, selected

    def forward(self, x):
        B, L, C = x.shape
        h = x.reshape(B * L, C)
        router_logits = self.gate(h)
        with torch.no_grad():
            weights, selected = self.route(router_logits)

        out = torch.zeros_like(h)
        for e, expert in enumerate(self.experts):
            token, slot = torch.where(selected == e)
            if token.numel() > 0:
                out.index_add_(0, token, expert(h[token]) * weights[token, slot, None])
        return out.reshape(B, L, C), router_logits
