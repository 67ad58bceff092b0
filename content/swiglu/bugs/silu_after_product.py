# kata: swiglu
import torch
import torch.nn as nn


class SwiGLU(nn.Module):
    def __init__(self, dim: int, hidden_dim: int):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)
        self.act = nn.SiLU()

    def forward(self, x):
        shape = x.shape
        tokens = x.reshape(-1, shape[-1])  # [N, dim]
        hidden = self.act(self.w1(tokens) * self.w3(tokens))
        out = self.w2(hidden)
        return out.reshape(*shape[:-1], out.shape[-1])
