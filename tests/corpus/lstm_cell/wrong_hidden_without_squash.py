# kata: lstm-cell
# why: held out: one small product per gate over name-keyed slices, the new hidden state the gated cell without tanh
# mistake: no_tanh_on_cell
import math

import torch
import torch.nn as nn


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.hidden_size = hidden_size
        self.use_bias = bias
        a = 1.0 / math.sqrt(hidden_size)
        self.weight_ih = nn.Parameter(torch.empty(4 * hidden_size, input_size).uniform_(-a, a))
        self.weight_hh = nn.Parameter(torch.empty(4 * hidden_size, hidden_size).uniform_(-a, a))
        if bias:
            self.bias_ih = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-a, a))
            self.bias_hh = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-a, a))

    def forward(self, x, hx=None):
        H = self.hidden_size
        if hx is None:
            h = torch.zeros(x.shape[0], H, dtype=x.dtype, device=x.device)
            c = torch.zeros(x.shape[0], H, dtype=x.dtype, device=x.device)
        else:
            h, c = hx
        pre = {}
        for k, name in enumerate(["input", "forget", "cell", "output"]):
            rows = slice(k * H, (k + 1) * H)
            pre[name] = x @ self.weight_ih[rows].T + h @ self.weight_hh[rows].T
            if self.use_bias:
                pre[name] = pre[name] + self.bias_ih[rows] + self.bias_hh[rows]
        c = torch.sigmoid(pre["forget"]) * c + torch.sigmoid(pre["input"]) * torch.tanh(pre["cell"])
        h = torch.sigmoid(pre["output"]) * c
        return h, c
