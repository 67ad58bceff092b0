# kata: lstm-cell
# why: held out: one sigmoid over the whole [B, 4H] block before splitting, so the candidate is squashed by σ too
# mistake: sigmoid_candidate
import math

import torch
import torch.nn as nn


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.hidden_size = hidden_size
        self.weight_ih = nn.Parameter(torch.empty(4 * hidden_size, input_size))
        self.weight_hh = nn.Parameter(torch.empty(4 * hidden_size, hidden_size))
        self.bias_ih = nn.Parameter(torch.empty(4 * hidden_size)) if bias else None
        self.bias_hh = nn.Parameter(torch.empty(4 * hidden_size)) if bias else None
        for p in self.parameters():
            nn.init.uniform_(p, -1 / math.sqrt(hidden_size), 1 / math.sqrt(hidden_size))

    def forward(self, x, hx=None):
        if hx is None:
            hx = (x.new_zeros(x.shape[0], self.hidden_size), x.new_zeros(x.shape[0], self.hidden_size))
        h, c = hx
        z = x @ self.weight_ih.T + h @ self.weight_hh.T
        if self.bias_ih is not None:
            z = z + self.bias_ih + self.bias_hh
        i, f, g, o = torch.sigmoid(z).chunk(4, dim=1)
        c2 = f * c + i * g
        return o * torch.tanh(c2), c2
