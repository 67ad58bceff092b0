# kata: lstm-cell
# why: held out: reads hx as (h, c) but returns the cell first, as some write the state (c, h)
# mistake: c_h_returned
import math

import torch
import torch.nn as nn


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.hidden_size = hidden_size
        k = math.sqrt(1.0 / hidden_size)
        self.weight_ih = nn.Parameter(torch.rand(4 * hidden_size, input_size) * 2 * k - k)
        self.weight_hh = nn.Parameter(torch.rand(4 * hidden_size, hidden_size) * 2 * k - k)
        if bias:
            self.bias_ih = nn.Parameter(torch.rand(4 * hidden_size) * 2 * k - k)
            self.bias_hh = nn.Parameter(torch.rand(4 * hidden_size) * 2 * k - k)
        else:
            self.bias_ih = None
            self.bias_hh = None

    def forward(self, x, hx=None):
        batch = x.shape[0]
        if hx is None:
            h = torch.zeros(batch, self.hidden_size, dtype=x.dtype, device=x.device)
            c = torch.zeros(batch, self.hidden_size, dtype=x.dtype, device=x.device)
        else:
            h, c = hx
        gates = x.matmul(self.weight_ih.t()) + h.matmul(self.weight_hh.t())
        if self.bias_ih is not None:
            gates = gates + self.bias_ih + self.bias_hh
        i, f, g, o = gates.chunk(4, 1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return c, h
