# kata: moe-layer
# why: per expert, a [T] weight vector (zero for tokens that did not choose it) times the expert run on every token
import torch
import torch.nn as nn
import torch.nn.functional as F


class Expert(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.w1 = nn.Linear(d, h, bias=False)
        self.w2 = nn.Linear(h, d, bias=False)
        self.w3 = nn.Linear(d, h, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class MoELayer(nn.Module):
    def __init__(self, dim, hidden_dim, num_experts, top_k=2, norm_topk_prob=True):
        super().__init__()
        self.k, self.norm = top_k, norm_topk_prob
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList()
        for _ in range(num_experts):
            self.experts.append(Expert(dim, hidden_dim))

    def forward(self, x):
        flat = x.flatten(0, 1)
        scores = self.gate(flat)
        prob = torch.softmax(scores, -1)
        val, idx = prob.topk(self.k, -1)
        if self.norm:
            val = val / val.sum(-1, keepdim=True)
        out = 0
        for e, expert in enumerate(self.experts):
            w = (val * (idx == e)).sum(-1, keepdim=True)  # [T, 1]
            out = out + w * expert(flat)
        return out.unflatten(0, x.shape[:2]), scores
