# kata: swiglu
import torch
from torch import nn


class SwiGLU(nn.Module):
    def __init__(self, dim: int, hidden_dim: int):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)

    def forward(self, x):
        gate = self.w1(x)
        up = self.w3(x)
        hidden = gate * torch.sigmoid(gate) * up
        return self.w2(hidden)
