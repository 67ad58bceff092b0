# kata: swiglu
import torch
import torch.nn as nn


class SwiGLU(nn.Module):
    def __init__(self, dim: int, hidden_dim: int):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)  # gate
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)  # up
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)  # down

    def forward(self, x):
        # weights are [out, in]: x @ W.T for each projection
        a = torch.einsum("...d,hd->...h", x, self.w1.weight)
        b = torch.einsum("...d,hd->...h", x, self.w3.weight)
        h = torch.sigmoid(a) * b
        return torch.einsum("...h,dh->...d", h, self.w2.weight)
