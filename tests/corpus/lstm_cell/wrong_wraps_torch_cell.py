# kata: lstm-cell
# why: refused: delegates to torch's own nn.LSTMCell (its parameters copied over), which the kata bans
# mistake: none
import torch
import torch.nn as nn


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        cell = nn.LSTMCell(input_size, hidden_size, bias=bias)
        self.weight_ih = cell.weight_ih
        self.weight_hh = cell.weight_hh
        self.bias_ih = cell.bias_ih
        self.bias_hh = cell.bias_hh
        self.hidden_size = hidden_size

    def forward(self, x, hx=None):
        return torch.lstm_cell(x, hx if hx is not None else (x.new_zeros(len(x), self.hidden_size),) * 2,
                               self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
