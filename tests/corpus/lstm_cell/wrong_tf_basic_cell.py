# kata: lstm-cell
# why: held out: ported from TensorFlow 1.x's BasicLSTMCell: i, j, f, o = split(...) and sigmoid(f + forget_bias)
# mistake: tf_gate_order
import math

import torch
import torch.nn as nn


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, forget_bias: float = 1.0):
        super().__init__()
        self._num_units = hidden_size
        self._forget_bias = forget_bias
        limit = 1.0 / math.sqrt(hidden_size)
        self.weight_ih = nn.Parameter(torch.empty(4 * hidden_size, input_size).uniform_(-limit, limit))
        self.weight_hh = nn.Parameter(torch.empty(4 * hidden_size, hidden_size).uniform_(-limit, limit))
        if bias:
            self.bias_ih = nn.Parameter(torch.zeros(4 * hidden_size))
            self.bias_hh = nn.Parameter(torch.zeros(4 * hidden_size))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)

    def forward(self, x, hx=None):
        if hx is None:
            state = x.new_zeros(x.shape[0], self._num_units)
            hx = (state, state)
        h, c = hx
        gate_inputs = torch.matmul(x, self.weight_ih.t()) + torch.matmul(h, self.weight_hh.t())
        if self.bias_ih is not None:
            gate_inputs = gate_inputs + self.bias_ih + self.bias_hh
        i, j, f, o = torch.split(gate_inputs, self._num_units, dim=1)
        new_c = c * torch.sigmoid(f + self._forget_bias) + torch.sigmoid(i) * torch.tanh(j)
        new_h = torch.tanh(new_c) * torch.sigmoid(o)
        return new_h, new_c
