# kata: batchnorm
import torch
import torch.nn as nn


class BatchNorm1d(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1):
        super().__init__()
        raise NotImplementedError("write BatchNorm1d.__init__")

    def forward(self, x):
        raise NotImplementedError("write BatchNorm1d.forward")
