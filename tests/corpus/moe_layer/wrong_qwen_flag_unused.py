# kata: moe-layer
# why: Qwen-style block that stores norm_topk_prob but never reads it: the chosen probabilities are never renormalised
# mistake: no_renormalisation
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, hidden_size, intermediate_size):
        super().__init__()
        self.w1 = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.w3 = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.w2 = nn.Linear(intermediate_size, hidden_size, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class MoELayer(nn.Module):
    def __init__(self, dim, hidden_dim, num_experts, top_k=2, norm_topk_prob=True):
        super().__init__()
        self.num_experts = num_experts
        self.top_k = top_k
        self.norm_topk_prob = norm_topk_prob
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList([MLP(dim, hidden_dim) for _ in range(num_experts)])

    def forward(self, hidden_states):
        batch_size, seq_len, hidden = hidden_states.shape
        flat = hidden_states.reshape(-1, hidden)
        router_logits = self.gate(flat)
        probs = torch.softmax(router_logits, dim=-1)
        topk_weight, topk_idx = torch.topk(probs, k=self.top_k, dim=-1)
        out = torch.zeros_like(flat)
        for i, expert in enumerate(self.experts):
            token_ids, slot_ids = torch.nonzero(topk_idx == i, as_tuple=True)
            if token_ids.numel() == 0:
                continue
            out.index_add_(0, token_ids, expert(flat[token_ids]) * topk_weight[token_ids, slot_ids].unsqueeze(-1))
        return out.reshape(batch_size, seq_len, hidden), router_logits
