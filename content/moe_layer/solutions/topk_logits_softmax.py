# kata: moe-layer
import torch
import torch.nn as nn
import torch.nn.functional as F


class FeedForward(nn.Module):
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
        self.renormalise = norm_topk_prob
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList([FeedForward(dim, hidden_dim) for _ in range(num_experts)])

    def forward(self, x):
        bsz, seqlen, dim = x.shape
        x_flat = x.view(-1, dim)
        gate_logits = self.gate(x_flat)
        top_logits, selected = torch.topk(gate_logits, self.k)
        if self.renormalise:
            # Mixtral's formula: a softmax over the k chosen logits, in float32
            weights = F.softmax(top_logits, dim=-1, dtype=torch.float32).to(x.dtype)
        else:
            weights = F.softmax(gate_logits, dim=-1, dtype=torch.float32).to(x.dtype).gather(-1, selected)
        rows = []
        for t in range(x_flat.shape[0]):
            acc = torch.zeros_like(x_flat[t])
            for j in range(self.k):
                acc = acc + weights[t, j] * self.experts[int(selected[t, j])](x_flat[t])
            rows.append(acc)
        return torch.stack(rows).view(bsz, seqlen, dim), gate_logits
