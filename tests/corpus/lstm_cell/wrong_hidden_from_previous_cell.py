# kata: lstm-cell
# why: held out: the hidden state computed before the cell is updated, from the previous cell
# mistake: old_cell_in_output
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
        if bias:
            self.bias_ih = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-bound, bound))
            self.bias_hh = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-bound, bound))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)

    def forward(self, x, hx=None):
        if hx is None:
            h_t = x.new_zeros(x.size(0), self.hidden_size)
            c_t = x.new_zeros(x.size(0), self.hidden_size)
        else:
            h_t, c_t = hx
        z = torch.mm(x, self.weight_ih.t()) + torch.mm(h_t, self.weight_hh.t())
        if self.bias_ih is not None:
            z += self.bias_ih + self.bias_hh
        i_t, f_t, g_t, o_t = z.chunk(4, 1)
        h_t = torch.sigmoid(o_t) * torch.tanh(c_t)
        c_t = torch.sigmoid(f_t) * c_t + torch.sigmoid(i_t) * torch.tanh(g_t)
        return h_t, c_t
