# kata: lstm-cell
# why: held out: einsum projections split with torch.split, the blocks read in a tutorial's order i, f, o, g
# mistake: gate_order_ifog
import math

import torch
import torch.nn as nn


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.hidden_size = hidden_size
        s = 1 / math.sqrt(hidden_size)
        self.weight_ih = nn.Parameter(torch.empty(4 * hidden_size, input_size).uniform_(-s, s))
        self.weight_hh = nn.Parameter(torch.empty(4 * hidden_size, hidden_size).uniform_(-s, s))
        if bias:
            self.bias_ih = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-s, s))
            self.bias_hh = nn.Parameter(torch.empty(4 * hidden_size).uniform_(-s, s))
        else:
            self.bias_ih = self.bias_hh = None

    def forward(self, x, hx=None):
        if hx is None:
            z0 = x.new_zeros(x.size(0), self.hidden_size)
            hx = (z0, z0)
        h, c = hx
        pre = torch.einsum("bi,ki->bk", x, self.weight_ih) + torch.einsum("bh,kh->bk", h, self.weight_hh)
        if self.bias_ih is not None:
            pre = pre + self.bias_ih + self.bias_hh
        ig, fg, og, cand = torch.split(pre, self.hidden_size, dim=1)
        ig, fg, og = ig.sigmoid(), fg.sigmoid(), og.sigmoid()
        c = fg * c + ig * cand.tanh()
        h = og * c.tanh()
        return h, c
