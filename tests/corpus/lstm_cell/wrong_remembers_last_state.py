# kata: lstm-cell
# why: held out: keeps the last (h, c), detached, in self and continues from it whenever hx is not given
# mistake: stateful_cell
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
        self.state = None

    def forward(self, x, hx=None):
        if hx is None:
            if self.state is None:
                zeros = x.new_zeros(x.size(0), self.hidden_size)
                self.state = (zeros, zeros)
            hx = self.state
        h, c = hx
        gates = x @ self.weight_ih.T + h @ self.weight_hh.T
        if self.bias_ih is not None:
            gates = gates + self.bias_ih + self.bias_hh
        i, f, g, o = gates.chunk(4, 1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        self.state = (h.detach(), c.detach())
        return h, c
