# kata: lstm-cell
import math

import torch
import torch.nn as nn


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.hidden_size = hidden_size
        self.bias = bias
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
        B = x.size(0)
        if hx is None:
            h = x.new_zeros(B, self.hidden_size)
            c = x.new_zeros(B, self.hidden_size)
        else:
            h, c = hx
        gates = torch.mm(x, self.weight_ih.t()) + torch.mm(h, self.weight_hh.t())
        if self.bias:
            gates = gates + self.bias_ih
        in_gate, forget_gate, cell_gate, out_gate = gates.chunk(4, 1)
        in_gate = torch.sigmoid(in_gate)
        forget_gate = torch.sigmoid(forget_gate)
        cell_gate = torch.tanh(cell_gate)
        out_gate = torch.sigmoid(out_gate)
        c_next = forget_gate * c + in_gate * cell_gate
        h_next = out_gate * torch.tanh(c_next)
        return h_next, c_next
