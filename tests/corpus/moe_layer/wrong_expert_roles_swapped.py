# kata: moe-layer
# why: each expert activates w3 (the up projection) and multiplies by w1: the gate and up roles swapped
# mistake: silu_on_up_projection
import torch
import torch.nn as nn
import torch.nn.functional as F


class Expert(nn.Module):
    def __init__(self, dim, hidden_dim):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)
        self.act = nn.SiLU()

    def forward(self, x):
        up, gate = self.w1(x), self.w3(x)
        return self.w2(up * self.act(gate))


class MoELayer(nn.Module):
    def __init__(self, dim, hidden_dim, num_experts, top_k=2, norm_topk_prob=True):
        super().__init__()
        self.num_experts = num_experts
        self.top_k = top_k
        self.norm_topk_prob = norm_topk_prob
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList([Expert(dim, hidden_dim) for _ in range(num_experts)])

    def forward(self, x):
        B, L, C = x.shape
        h = x.reshape(-1, C)
        logits = self.gate(h)
        w, e = logits.softmax(-1).topk(self.top_k, -1)
        if self.norm_topk_prob:
            w = w / w.sum(-1, keepdim=True)
        mix = torch.zeros_like(logits).scatter(1, e, w)
        out = sum(mix[:, i:i + 1] * expert(h) for i, expert in enumerate(self.experts))
        return out.view(B, L, C), logits
