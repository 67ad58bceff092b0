# kata: lstm-cell
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.hidden_size = hidden_size
        k = 1.0 / math.sqrt(hidden_size)
        self.weight_ih = nn.Parameter(torch.empty(4 * hidden_size, input_size).uniform_(-k, k))
        self.weight_hh = nn.Parameter(torch.empty(4 * hidden_size, hidden_size).uniform_(-k, k))
        if bias:
            self.bias_ih = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-k, k))
            self.bias_hh = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-k, k))
        else:
            self.bias_ih = None
            self.bias_hh = None

    def forward(self, x, hx=None):
        H = self.hidden_size
        if hx is None:
            h = torch.zeros(x.shape[0], H, dtype=x.dtype, device=x.device)
            c = torch.zeros(x.shape[0], H, dtype=x.dtype, device=x.device)
        else:
            h, c = hx
        z = F.linear(x, self.weight_ih, self.bias_ih) + F.linear(h, self.weight_hh, self.bias_hh)
        i = torch.sigmoid(z[:, 0:H])
        f = torch.sigmoid(z[:, H:2 * H])
        g = torch.tanh(z[:, 2 * H:3 * H])
        o = torch.sigmoid(z[:, 3 * H:4 * H])
        h_new = o * torch.tanh(c)
        c_new = f * c + i * g
        return h_new, c_new
