# kata: moe-layer
# why: two slips at once: never renormalises and puts SiLU on the up projection; no single known mistake explains it
# mistake: none
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
        return self.w2(self.w1(x) * F.silu(self.w3(x)))


class MoELayer(nn.Module):
    def __init__(self, dim, hidden_dim, num_experts, top_k=2, norm_topk_prob=True):
        super().__init__()
        self.top_k = top_k
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList([Expert(dim, hidden_dim) for _ in range(num_experts)])

    def forward(self, x):
        tokens = x.reshape(-1, x.shape[-1])
        logits = self.gate(tokens)
        w, e = logits.softmax(-1).topk(self.top_k, -1)
        out = torch.zeros_like(tokens)
        for i, expert in enumerate(self.experts):
            tok, slot = torch.where(e == i)
            out.index_add_(0, tok, expert(tokens[tok]) * w[tok, slot, None])
        return out.view(x.shape), logits
