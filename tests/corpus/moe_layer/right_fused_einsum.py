# kata: moe-layer
# why: the experts' weights stacked into [E, I, C] tensors at call time and applied to the gathered tokens with einsum
import torch
import torch.nn as nn
import torch.nn.functional as F


class Expert(nn.Module):
    def __init__(self, dim, hidden_dim):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)


class MoELayer(nn.Module):
    def __init__(self, dim, hidden_dim, num_experts, top_k=2, norm_topk_prob=True):
        super().__init__()
        self.top_k = top_k
        self.norm_topk_prob = norm_topk_prob
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList([Expert(dim, hidden_dim) for _ in range(num_experts)])

    def forward(self, x):
        B, L, C = x.shape
        h = x.reshape(B * L, C)
        logits = h @ self.gate.weight.T
        p = logits.softmax(-1)
        w, e = p.topk(self.top_k, dim=-1)  # [T, k]
        if self.norm_topk_prob:
            w = w / w.sum(-1, keepdim=True)
        W1 = torch.stack([ex.w1.weight for ex in self.experts])[e]  # [T, k, I, C]
        W3 = torch.stack([ex.w3.weight for ex in self.experts])[e]
        W2 = torch.stack([ex.w2.weight for ex in self.experts])[e]  # [T, k, C, I]
        a = F.silu(torch.einsum("tkic,tc->tki", W1, h)) * torch.einsum("tkic,tc->tki", W3, h)
        y = torch.einsum("tkci,tki->tkc", W2, a)
        out = (w.unsqueeze(-1) * y).sum(1)
        return out.view(B, L, C), logits
