# kata: swiglu
import torch
import torch.nn as nn


class SwiGLU(nn.Module):
    def __init__(self, dim, hidden_dim):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)
        self.act = nn.SiLU()

    def forward(self, x):
        a = torch.einsum("...d,hd->...h", x, self.w1.weight)
        b = torch.einsum("...d,hd->...h", x, self.w3.weight)
        return torch.einsum("...h,dh->...d", self.act(a) * b, self.w2.weight)
