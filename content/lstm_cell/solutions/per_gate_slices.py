# kata: lstm-cell
# why: right: one matrix product per gate, each from its own row block of the stacked weights, the sigmoid written out
import math

import torch
import torch.nn as nn


def sigmoid(t):
    return 1.0 / (1.0 + torch.exp(-t))


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.hidden_size = hidden_size
        self.weight_ih = nn.Parameter(torch.Tensor(4 * hidden_size, input_size))
        self.weight_hh = nn.Parameter(torch.Tensor(4 * hidden_size, hidden_size))
        if bias:
            self.bias_ih = nn.Parameter(torch.Tensor(4 * hidden_size))
            self.bias_hh = nn.Parameter(torch.Tensor(4 * hidden_size))
        else:
            self.bias_ih = None
            self.bias_hh = None
        std = 1.0 / math.sqrt(hidden_size)
        for w in self.parameters():
            w.data.uniform_(-std, std)

    def gate(self, k, x, h):
        H = self.hidden_size
        rows = slice(k * H, (k + 1) * H)
        out = x @ self.weight_ih[rows].T + h @ self.weight_hh[rows].T
        if self.bias_ih is not None:
            out = out + self.bias_ih[rows] + self.bias_hh[rows]
        return out

    def forward(self, x, hx=None):
        if hx is None:
            zeros = torch.zeros(x.size(0), self.hidden_size, dtype=x.dtype, device=x.device)
            hx = (zeros, zeros)
        h_prev, c_prev = hx
        input_gate = sigmoid(self.gate(0, x, h_prev))
        forget_gate = sigmoid(self.gate(1, x, h_prev))
        candidate = torch.tanh(self.gate(2, x, h_prev))
        output_gate = sigmoid(self.gate(3, x, h_prev))
        cell = forget_gate * c_prev + input_gate * candidate
        hidden = output_gate * torch.tanh(cell)
        return (hidden, cell)
