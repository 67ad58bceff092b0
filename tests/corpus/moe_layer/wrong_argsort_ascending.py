# kata: moe-layer
# why: the experts picked from an ascending argsort's first k columns: the k least probable
# mistake: least_probable_experts
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
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList([Expert(dim, hidden_dim) for _ in range(num_experts)])

    def forward(self, x):
        B, L, C = x.shape
        flat = x.reshape(B * L, C)
        router_logits = self.gate(flat)
        p = router_logits.softmax(dim=-1)
        idx = p.argsort(dim=-1)[:, :self.top_k]
        w = p.gather(-1, idx)
        if self.norm_topk_prob:
            w = w / w.sum(-1, keepdim=True)
        rows = []
        for t in range(flat.shape[0]):
            rows.append(sum(w[t, j] * self.experts[int(idx[t, j])](flat[t]) for j in range(self.top_k)))
        return torch.stack(rows).reshape(B, L, C), router_logits
