# kata: moe-layer
# why: the router computed in float32 whatever x's dtype (logits cast back), renormalised by a softmax over the chosen logits
import torch
import torch.nn as nn
import torch.nn.functional as F


class SwiGLU(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class MoELayer(nn.Module):
    def __init__(self, dim, hidden_dim, num_experts, top_k=2, norm_topk_prob=True):
        super().__init__()
        self.top_k, self.norm_topk_prob = top_k, norm_topk_prob
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList([SwiGLU(dim, hidden_dim) for _ in range(num_experts)])

    def forward(self, x):
        B, L, C = x.shape
        h = x.reshape(-1, C)
        logits = self.gate(h)
        z = logits.float()
        if self.norm_topk_prob:
            chosen_logits, chosen = z.topk(self.top_k, dim=-1)
            w = chosen_logits.softmax(-1)
        else:
            w, chosen = z.softmax(-1).topk(self.top_k, dim=-1)
        w = w.to(x.dtype)
        out = torch.zeros_like(h)
        for e in range(len(self.experts)):
            rows, slots = (chosen == e).nonzero(as_tuple=True)
            if rows.numel():
                out = out.index_add(0, rows, self.experts[e](h[rows]) * w[rows, slots].unsqueeze(1))
        return out.view(B, L, C), logits
