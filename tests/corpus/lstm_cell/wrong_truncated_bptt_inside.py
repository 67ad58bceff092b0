# kata: lstm-cell
# why: held out: detaches the incoming state in the cell itself ("truncated BPTT"), so no gradient reaches earlier calls
# mistake: state_detached
import math

import torch
import torch.nn as nn


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.hidden_size = hidden_size
        s = 1.0 / math.sqrt(hidden_size)
        self.weight_ih = nn.Parameter(torch.empty(4 * hidden_size, input_size).uniform_(-s, s))
        self.weight_hh = nn.Parameter(torch.empty(4 * hidden_size, hidden_size).uniform_(-s, s))
        if bias:
            self.bias_ih = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-s, s))
            self.bias_hh = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-s, s))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)

    def forward(self, x, hx=None):
        if hx is None:
            h = c = x.new_zeros(x.size(0), self.hidden_size)
        else:
            h, c = (t.detach() for t in hx)
        gates = x @ self.weight_ih.T + h @ self.weight_hh.T
        if self.bias_ih is not None:
            gates = gates + self.bias_ih + self.bias_hh
        i, f, g, o = gates.chunk(4, 1)
        c = f.sigmoid() * c + i.sigmoid() * g.tanh()
        h = o.sigmoid() * c.tanh()
        return h, c
