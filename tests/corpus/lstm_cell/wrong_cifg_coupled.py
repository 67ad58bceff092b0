# kata: lstm-cell
# why: held out: a coupled input-forget gate (CIFG, as in GRU-like cells): forget = 1 - input, the forget rows unused
# mistake: coupled_forget_gate
import math

import torch
import torch.nn as nn


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.n = hidden_size
        w = 1 / math.sqrt(hidden_size)
        self.weight_ih = nn.Parameter(torch.empty(4 * hidden_size, input_size).uniform_(-w, w))
        self.weight_hh = nn.Parameter(torch.empty(4 * hidden_size, hidden_size).uniform_(-w, w))
        if bias:
            self.bias_ih = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-w, w))
            self.bias_hh = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-w, w))
        else:
            self.bias_ih = self.bias_hh = None

    def forward(self, x, hx=None):
        n = self.n
        h, c = hx if hx is not None else (x.new_zeros(len(x), n), x.new_zeros(len(x), n))
        s = x @ self.weight_ih.T + h @ self.weight_hh.T
        if self.bias_ih is not None:
            s = s + self.bias_ih + self.bias_hh
        i = torch.sigmoid(s[:, :n])
        g = torch.tanh(s[:, 2 * n:3 * n])
        o = torch.sigmoid(s[:, 3 * n:])
        c = (1 - i) * c + i * g
        return o * torch.tanh(c), c
