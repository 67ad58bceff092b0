# kata: swiglu
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
        gate_up = F.linear(x, torch.cat([self.w1.weight, self.w3.weight], dim=0))
        gate, up = gate_up.chunk(2, dim=-1)
        return F.linear(F.silu(gate) * up, self.w2.weight)
