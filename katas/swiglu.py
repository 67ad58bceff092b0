# kata: swiglu
import torch
import torch.nn as nn
import torch.nn.functional as F


class SwiGLU(nn.Module):
    def __init__(self, dim: int, hidden_dim: int):
        super().__init__()
        raise NotImplementedError("write SwiGLU.__init__")

    def forward(self, x):
        raise NotImplementedError("write SwiGLU.forward")
