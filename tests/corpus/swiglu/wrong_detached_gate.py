# kata: swiglu
# why: computes the gate under torch.no_grad() ("it is only a gate"): no gradient reaches w1
# mistake: none
import torch
import torch.nn as nn
import torch.nn.functional as F


class SwiGLU(nn.Module):
    def __init__(self, dim, hidden_dim):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)

    def forward(self, x):
        with torch.no_grad():
            gate = F.silu(self.w1(x))
        return self.w2(gate * self.w3(x))
