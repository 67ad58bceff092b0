# kata: gelu
# why: transformers' GELUActivation / NewGELUActivation bodies copied as classes (input named `input`), chosen by match
import math

import torch
from torch import Tensor, nn


class NewGELUActivation(nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return 0.5 * input * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (input + 0.044715 * torch.pow(input, 3.0))))


class GELUActivation(nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return input * 0.5 * (1.0 + torch.erf(input / math.sqrt(2.0)))


def gelu(x, approximate="none"):
    match approximate:
        case "none":
            act = GELUActivation()
        case "tanh":
            act = NewGELUActivation()
        case _:
            raise ValueError(f"approximate={approximate!r}")
    return act(x)
