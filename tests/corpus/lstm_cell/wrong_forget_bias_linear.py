# kata: lstm-cell
# why: held out: F.linear for both projections, gates indexed from a list, a forget bias of 1 added in the formula
# mistake: forget_bias_added
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.H = hidden_size
        self.weight_ih = nn.Parameter(torch.randn(4 * hidden_size, input_size) / math.sqrt(hidden_size))
        self.weight_hh = nn.Parameter(torch.randn(4 * hidden_size, hidden_size) / math.sqrt(hidden_size))
        if bias:
            self.bias_ih = nn.Parameter(torch.zeros(4 * hidden_size))
            self.bias_hh = nn.Parameter(torch.zeros(4 * hidden_size))
        else:
            self.bias_ih = None
            self.bias_hh = None

    def forward(self, x, hx=None):
        if hx is None:
            hx = (torch.zeros(x.size(0), self.H, dtype=x.dtype, device=x.device),
                  torch.zeros(x.size(0), self.H, dtype=x.dtype, device=x.device))
        h_prev, c_prev = hx
        pre = F.linear(x, self.weight_ih, self.bias_ih) + F.linear(h_prev, self.weight_hh, self.bias_hh)
        parts = pre.chunk(4, dim=-1)
        in_g = torch.sigmoid(parts[0])
        forget = torch.sigmoid(parts[1] + 1.0)
        cell_in = torch.tanh(parts[2])
        out_g = torch.sigmoid(parts[3])
        c_next = forget * c_prev + in_g * cell_in
        h_next = out_g * torch.tanh(c_next)
        return h_next, c_next
