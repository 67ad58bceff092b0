# kata: lstm-cell
# why: right: einsum projections, a reset_parameters method as torch's, gates split with torch.split
import math

import torch
import torch.nn as nn


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        self.weight_ih = nn.Parameter(torch.empty(4 * hidden_size, input_size))
        self.weight_hh = nn.Parameter(torch.empty(4 * hidden_size, hidden_size))
        if bias:
            self.bias_ih = nn.Parameter(torch.empty(4 * hidden_size))
            self.bias_hh = nn.Parameter(torch.empty(4 * hidden_size))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size)
        for weight in self.parameters():
            nn.init.uniform_(weight, -stdv, stdv)

    def forward(self, x, hx=None):
        if hx is None:
            hx = (x.new_zeros(x.size(0), self.hidden_size),) * 2
        h, c = hx
        gates = torch.einsum("bi,gi->bg", x, self.weight_ih) + torch.einsum("bh,gh->bg", h, self.weight_hh)
        if self.bias:
            gates = gates + (self.bias_ih + self.bias_hh)
        in_gate, forget_gate, cell_gate, out_gate = torch.split(gates, self.hidden_size, dim=-1)
        c_next = torch.sigmoid(forget_gate) * c + torch.sigmoid(in_gate) * torch.tanh(cell_gate)
        h_next = torch.sigmoid(out_gate) * torch.tanh(c_next)
        return h_next, c_next
