# kata: lstm-cell
# why: right: written on the last dim with x.shape[:-1]; with hx None the recurrent matmul is skipped (weight_hh then
#      gets no gradient on a one-call sequence, where its gradient is zero anyway)
import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.weight_ih = nn.Parameter(torch.randn(4 * hidden_size, input_size) * 0.1)
        self.weight_hh = nn.Parameter(torch.randn(4 * hidden_size, hidden_size) * 0.1)
        if bias:
            self.bias_ih = nn.Parameter(torch.zeros(4 * hidden_size))
            self.bias_hh = nn.Parameter(torch.zeros(4 * hidden_size))

    def forward(self, x, hx=None):
        bias_ih = getattr(self, "bias_ih", None)
        bias_hh = getattr(self, "bias_hh", None)
        z = F.linear(x, self.weight_ih, bias_ih)
        if hx is None:
            c = x.new_zeros(*x.shape[:-1], self.hidden_size)
            if bias_hh is not None:
                z = z + bias_hh
        else:
            h, c = hx
            z = z + F.linear(h, self.weight_hh, bias_hh)
        H = self.hidden_size
        i = torch.sigmoid(z[..., :H])
        f = torch.sigmoid(z[..., H:2 * H])
        g = torch.tanh(z[..., 2 * H:3 * H])
        o = torch.sigmoid(z[..., 3 * H:])
        c = f * c + i * g
        return o * torch.tanh(c), c
