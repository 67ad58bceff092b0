# kata: lstm-cell
# why: right: torch.addmm for each projection, the gates as a [B, 4, H] view unbound along dim 1
import math

import torch
import torch.nn as nn


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.hidden_size = hidden_size
        k = 1.0 / math.sqrt(hidden_size)
        self.weight_ih = nn.Parameter(torch.empty(4 * hidden_size, input_size).uniform_(-k, k))
        self.weight_hh = nn.Parameter(torch.empty(4 * hidden_size, hidden_size).uniform_(-k, k))
        if bias:
            self.bias_ih = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-k, k))
            self.bias_hh = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-k, k))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)

    def forward(self, x, hx=None):
        B = x.shape[0]
        if hx is None:
            h = torch.zeros(B, self.hidden_size, dtype=x.dtype, device=x.device)
            c = torch.zeros_like(h)
        else:
            h, c = hx
        if self.bias_ih is None:
            gates = x @ self.weight_ih.t() + h @ self.weight_hh.t()
        else:
            gates = torch.addmm(self.bias_ih, x, self.weight_ih.t()) + torch.addmm(self.bias_hh, h, self.weight_hh.t())
        i, f, g, o = gates.view(B, 4, self.hidden_size).unbind(1)
        c_new = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h_new = torch.sigmoid(o) * torch.tanh(c_new)
        return h_new, c_new
