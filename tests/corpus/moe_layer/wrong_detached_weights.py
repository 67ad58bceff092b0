# kata: moe-layer
# why: the routing weights detached after top-k ("the routing is discrete anyway"): the gate learns nothing through them
# mistake: routing_under_no_grad
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
        self.experts = nn.ModuleList([Expert(dim, hidden_dim) for _ in range(num_experts)])

    def forward(self, x):
        B, L, C = x.shape
        h = x.reshape(-1, C)
        logits = self.gate(h)
        gates = logits.softmax(-1)
        vals, inds = gates.topk(self.top_k, -1)
        if self.norm_topk_prob:
            vals = vals / vals.sum(-1, keepdim=True)
        vals = vals.detach()
        out = torch.zeros_like(h)
        for e in range(self.num_experts):
            tok, slot = (inds == e).nonzero(as_tuple=True)
            if len(tok) > 0:
                out.index_add_(0, tok, vals[tok, slot, None] * self.experts[e](h[tok]))
        return out.view(B, L, C), logits
