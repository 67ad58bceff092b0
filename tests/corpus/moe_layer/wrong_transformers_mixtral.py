# kata: moe-layer
# why: transformers' Mixtral expert class imported instead of written (banned: transformers.models)
# mistake: none
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers.models.mixtral.modeling_mixtral import MixtralBlockSparseTop2MLP  # noqa: F401


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
        h = x.reshape(-1, C)
        logits = self.gate(h)
        w, e = logits.softmax(-1).topk(self.top_k, -1)
        if self.norm_topk_prob:
            w = w / w.sum(-1, keepdim=True)
        out = torch.zeros_like(h)
        for i, expert in enumerate(self.experts):
            tok, slot = torch.where(e == i)
            out.index_add_(0, tok, expert(h[tok]) * w[tok, slot, None])
        return out.view(B, L, C), logits
