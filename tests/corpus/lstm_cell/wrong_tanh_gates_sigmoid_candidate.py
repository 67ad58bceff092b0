# kata: lstm-cell
# why: held out: the two activations mixed up: tanh on the three gates, sigmoid on the candidate
# mistake: activations_swapped
import math

import torch
import torch.nn as nn


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.hidden_size = hidden_size
        k = 1 / math.sqrt(hidden_size)
        self.weight_ih = nn.Parameter(torch.empty(4 * hidden_size, input_size).uniform_(-k, k))
        self.weight_hh = nn.Parameter(torch.empty(4 * hidden_size, hidden_size).uniform_(-k, k))
        if bias:
            self.bias_ih = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-k, k))
            self.bias_hh = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-k, k))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)

    def forward(self, x, hx=None):
        if hx is None:
            hx = (x.new_zeros(x.size(0), self.hidden_size),) * 2
        h, c = hx
        z = x @ self.weight_ih.T + h @ self.weight_hh.T
        if self.bias_ih is not None:
            z = z + self.bias_ih + self.bias_hh
        zi, zf, zg, zo = z.chunk(4, dim=1)
        i, f, o = torch.tanh(zi), torch.tanh(zf), torch.tanh(zo)
        g = torch.sigmoid(zg)
        c = f * c + i * g
        return o * torch.tanh(c), c
