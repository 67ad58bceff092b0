# kata: lstm-cell
import math

import torch
import torch.nn as nn


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.hidden_size = hidden_size
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
        bound = 1 / math.sqrt(self.hidden_size)
        for w in self.parameters():
            nn.init.uniform_(w, -bound, bound)

    def forward(self, x, hx=None):
        if hx is None:
            state = x.new_zeros(x.shape[0], self.hidden_size)
            hx = (state, state)
        cx, hx_prev = hx
        gates = x @ self.weight_ih.T + hx_prev @ self.weight_hh.T
        if self.bias_ih is not None:
            gates = gates + self.bias_ih + self.bias_hh
        ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
        cy = torch.sigmoid(forgetgate) * cx + torch.sigmoid(ingate) * torch.tanh(cellgate)
        hy = torch.sigmoid(outgate) * torch.tanh(cy)
        return hy, cy
