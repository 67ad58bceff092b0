# kata: moe-layer
# why: works on [B*L, C] tokens throughout and returns them without restoring the batch shape
# mistake: output_not_reshaped
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
        tokens = x.flatten(0, -2)
        logits = self.gate(tokens)
        w, e = logits.softmax(-1).topk(self.top_k, -1)
        if self.norm_topk_prob:
            w = w / w.sum(-1, keepdim=True)
        out = torch.zeros_like(tokens)
        for i, expert in enumerate(self.experts):
            tok, slot = torch.where(e == i)
            out.index_add_(0, tok, expert(tokens[tok]) * w[tok, slot, None])
        return out, logits
