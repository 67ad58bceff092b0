# kata: lstm-cell
# why: held out: both biases registered, but the recurrent projection is written without its bias
# mistake: one_bias_only
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.hidden_size = hidden_size
        r = 1 / math.sqrt(hidden_size)
        self.weight_ih = nn.Parameter(torch.empty(4 * hidden_size, input_size).uniform_(-r, r))
        self.weight_hh = nn.Parameter(torch.empty(4 * hidden_size, hidden_size).uniform_(-r, r))
        if bias:
            self.bias_ih = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-r, r))
            self.bias_hh = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-r, r))
        else:
            self.bias_ih = None
            self.bias_hh = None

    def forward(self, x, hx=None):
        if hx is None:
            h = torch.zeros(x.size(0), self.hidden_size, dtype=x.dtype, device=x.device)
            c = h
        else:
            h, c = hx
        a = F.linear(x, self.weight_ih, self.bias_ih) + h @ self.weight_hh.T
        i, f, g, o = a.chunk(4, dim=-1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return h, c
