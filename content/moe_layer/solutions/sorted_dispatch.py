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
        self.experts = nn.ModuleList(Expert(dim, hidden_dim) for _ in range(num_experts))

    def forward(self, x):
        shape = x.shape
        h = x.reshape(-1, shape[-1])
        router_logits = self.gate(h)
        weights, experts = torch.topk(F.softmax(router_logits, dim=-1), self.top_k, dim=-1)
        if self.norm_topk_prob:
            weights = weights / weights.sum(dim=-1, keepdim=True)

        flat_experts = experts.flatten()  # [T * k]
        token_of = torch.arange(h.shape[0], device=x.device).repeat_interleave(self.top_k)
        order = torch.argsort(flat_experts, stable=True)
        counts = torch.bincount(flat_experts, minlength=self.num_experts).tolist()
        grouped = h[token_of[order]].split(counts)  # one contiguous group per expert
        y = torch.cat([expert(group) for expert, group in zip(self.experts, grouped)])
        y = y * weights.flatten()[order].unsqueeze(-1)
        out = torch.zeros_like(h).index_add(0, token_of[order], y)
        return out.view(shape), router_logits
