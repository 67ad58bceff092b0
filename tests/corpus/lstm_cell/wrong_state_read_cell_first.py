# kata: lstm-cell
# why: held out: returns (h, c) but unpacks the incoming state as (c_prev, h_prev)
# mistake: hx_unpacked_as_c_h
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.hidden_size = hidden_size
        std = 1.0 / math.sqrt(hidden_size)
        self.weight_ih = nn.Parameter(torch.empty(4 * hidden_size, input_size).uniform_(-std, std))
        self.weight_hh = nn.Parameter(torch.empty(4 * hidden_size, hidden_size).uniform_(-std, std))
        if bias:
            self.bias_ih = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-std, std))
            self.bias_hh = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-std, std))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)

    def forward(self, x, hx=None):
        if hx is None:
            zero = x.new_zeros(x.size(0), self.hidden_size)
            hx = (zero, zero)
        c_prev, h_prev = hx
        gates = F.linear(x, self.weight_ih, self.bias_ih) + F.linear(h_prev, self.weight_hh, self.bias_hh)
        ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
        cy = torch.sigmoid(forgetgate) * c_prev + torch.sigmoid(ingate) * torch.tanh(cellgate)
        hy = torch.sigmoid(outgate) * torch.tanh(cy)
        return hy, cy
