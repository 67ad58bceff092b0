# kata: moe-layer
# why: dense form whose [T, E] mixing matrix is the 0/1 choice mask: the chosen experts' outputs are summed unweighted
# mistake: weights_not_applied
import torch
import torch.nn as nn
import torch.nn.functional as F


class SwiGLU(nn.Module):
    def __init__(self, dim, hidden_dim):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class MoELayer(nn.Module):
    def __init__(self, dim, hidden_dim, num_experts, top_k=2, norm_topk_prob=True):
        super().__init__()
        self.top_k = top_k
        self.norm_topk_prob = norm_topk_prob
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList(SwiGLU(dim, hidden_dim) for _ in range(num_experts))

    def forward(self, x):
        B, L, C = x.shape
        tokens = x.reshape(B * L, C)
        logits = self.gate(tokens)
        _, top_i = logits.softmax(-1).topk(self.top_k, dim=-1)
        mix = F.one_hot(top_i, logits.shape[-1]).sum(1).to(x.dtype)  # [T, E]
        every = torch.stack([expert(tokens) for expert in self.experts], dim=1)
        return (mix.unsqueeze(-1) * every).sum(1).reshape(B, L, C), logits
