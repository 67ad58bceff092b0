# kata: moe-layer
# why: the [E, k, T] mask's where() unpacked as (token, slot): the slot index is used to pick tokens
# mistake: where_indices_swapped
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
        self.E = num_experts
        self.k = top_k
        self.norm_topk_prob = norm_topk_prob
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList([Expert(dim, hidden_dim) for _ in range(num_experts)])

    def forward(self, x):
        B, T, C = x.shape
        h = x.view(B * T, C)
        router_logits = self.gate(h)
        w, sel = F.softmax(router_logits, dim=-1).topk(self.k, dim=-1)
        if self.norm_topk_prob:
            w = w / w.sum(-1, keepdim=True)
        y = torch.zeros_like(h)
        mask = F.one_hot(sel, self.E).permute(2, 1, 0)
        for e in range(self.E):
            tok, slot = torch.where(mask[e])
            y.index_add_(0, tok, self.experts[e](h[tok]) * w[tok, slot].unsqueeze(-1))
        return y.view(B, T, C), router_logits
