# kata: moe-layer
# why: the router built as nn.Linear(dim, num_experts) with its default bias
# mistake: gate_with_bias
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
        self.top_k = top_k
        self.norm_topk_prob = norm_topk_prob
        self.gate = nn.Linear(dim, num_experts)
        self.experts = nn.ModuleList([Expert(dim, hidden_dim) for _ in range(num_experts)])

    def forward(self, x):
        B, L, C = x.shape
        h = x.reshape(-1, C)
        logits = self.gate(h)
        w, e = logits.softmax(-1).topk(self.top_k, -1)
        if self.norm_topk_prob:
            w = w / w.sum(-1, keepdim=True)
        out = torch.zeros_like(h)
        for j in range(self.top_k):
            for i, expert in enumerate(self.experts):
                rows = (e[:, j] == i).nonzero().flatten()
                out = out.index_add(0, rows, w[rows, j, None] * expert(h[rows]))
        return out.view(B, L, C), logits
