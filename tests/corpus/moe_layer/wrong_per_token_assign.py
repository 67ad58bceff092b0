# kata: moe-layer
# why: a per-token loop over the k slots that assigns each slot's output to the row instead of adding it: only the last slot remains
# mistake: overwrite_not_add
import torch
import torch.nn as nn
import torch.nn.functional as F


class FFN(nn.Module):
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
        self.k = top_k
        self.norm = norm_topk_prob
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList([FFN(dim, hidden_dim) for _ in range(num_experts)])

    def forward(self, x):
        B, L, C = x.shape
        xs = x.reshape(-1, C)
        logits = self.gate(xs)
        probs, ids = logits.softmax(-1).topk(self.k)
        if self.norm:
            probs = probs / probs.sum(-1, keepdim=True)
        out = torch.zeros_like(xs)
        for t in range(xs.shape[0]):
            for j in range(self.k):
                out[t] = probs[t, j] * self.experts[ids[t, j].item()](xs[t])
        return out.reshape(B, L, C), logits
