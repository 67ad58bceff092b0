"""One step of a long short-term memory cell: torch.nn.LSTMCell, with its parameters and gate order.

Hochreiter & Schmidhuber, "Long Short-Term Memory" (1997), with the forget gate of Gers, Schmidhuber &
Cummins (2000), in the form PyTorch documents for `torch.nn.LSTMCell` (and cuDNN computes):

    i  = σ(W_ii x + b_ii + W_hi h + b_hi)        input gate
    f  = σ(W_if x + b_if + W_hf h + b_hf)        forget gate
    g  = tanh(W_ig x + b_ig + W_hg h + b_hg)     cell candidate
    o  = σ(W_io x + b_io + W_ho h + b_ho)        output gate
    c' = f ⊙ c + i ⊙ g
    h' = o ⊙ tanh(c')

The four gates' weights are stacked in one matrix per input, row blocks in the order i, f, g, o:
weight_ih [4H, I], weight_hh [4H, H], and two biases bias_ih, bias_hh [4H], both added (cuDNN's
layout, which is why torch keeps two). The cell keeps no state: the caller threads (h, c) from one
step to the next, and gradients flow back through every step (backpropagation through time).
"""
import math

import torch
import torch.nn as nn


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        self.input_size, self.hidden_size = input_size, hidden_size
        H, I = hidden_size, input_size
        self.weight_ih = nn.Parameter(torch.empty(4 * H, I))
        self.weight_hh = nn.Parameter(torch.empty(4 * H, H))
        if bias:
            self.bias_ih = nn.Parameter(torch.empty(4 * H))
            self.bias_hh = nn.Parameter(torch.empty(4 * H))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        bound = 1.0 / math.sqrt(H)  # torch's init: every parameter U(-1/√H, 1/√H)
        for p in self.parameters():
            nn.init.uniform_(p, -bound, bound)

    def forward(self, x, hx=None):
        """x (B, I); hx = (h, c), each (B, H), or None for zeros. Returns (h', c'), each (B, H)."""
        B, H = x.size(0), self.hidden_size
        if hx is None:
            zeros = x.new_zeros(B, H)  # x's dtype and device
            hx = (zeros, zeros)
        h, c = hx
        gates = x @ self.weight_ih.T + h @ self.weight_hh.T  # (B, 4H)
        if self.bias_ih is not None:
            gates = gates + self.bias_ih + self.bias_hh
        i, f, g, o = gates.chunk(4, dim=1)  # each (B, H), rows [0, H) [H, 2H) [2H, 3H) [3H, 4H)
        i, f, g, o = torch.sigmoid(i), torch.sigmoid(f), torch.tanh(g), torch.sigmoid(o)
        c_next = f * c + i * g  # (B, H)
        h_next = o * torch.tanh(c_next)  # (B, H)
        return h_next, c_next
