# kata: swiglu
# why: an nn.SiLU module applied to the gate and to the up branch, by hand-written sigmoid
# mistake: silu_on_both
import torch
import torch.nn as nn


class SwiGLU(nn.Module):
    def __init__(self, dim: int, hidden_dim: int):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.act = nn.SiLU()

    def forward(self, x):
        gate = self.act(self.w1(x))
        up = self.w3(x)
        up = up * torch.sigmoid(up)
        return self.w2(gate * up)
