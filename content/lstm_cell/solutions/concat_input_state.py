# kata: lstm-cell
# why: right: [x, h] concatenated against the two weights concatenated along the columns, one product, sigmoid on
#      the whole block then the candidate's columns replaced by tanh
import math

import torch
import torch.nn as nn


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.hidden_size = hidden_size
        bound = 1 / math.sqrt(hidden_size)
        self.weight_ih = nn.Parameter(torch.empty(4 * hidden_size, input_size).uniform_(-bound, bound))
        self.weight_hh = nn.Parameter(torch.empty(4 * hidden_size, hidden_size).uniform_(-bound, bound))
        self.bias_ih = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-bound, bound)) if bias else None
        self.bias_hh = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-bound, bound)) if bias else None

    def forward(self, x, hx=None):
        H = self.hidden_size
        if hx is None:
            h = c = x.new_zeros(len(x), H)
        else:
            h, c = hx
        w = torch.cat([self.weight_ih, self.weight_hh], dim=1)
        z = torch.cat([x, h], dim=1) @ w.T
        if self.bias_ih is not None:
            z = z + self.bias_ih + self.bias_hh
        act = torch.sigmoid(z)
        i, f, o = act[:, :H], act[:, H:2 * H], act[:, 3 * H:]
        g = torch.tanh(z[:, 2 * H:3 * H])
        c_new = f * c + i * g
        return o * c_new.tanh(), c_new
