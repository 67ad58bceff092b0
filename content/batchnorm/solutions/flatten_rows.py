# kata: batchnorm
import torch
import torch.nn as nn


class BatchNorm1d(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.weight = nn.Parameter(torch.ones(num_features))
        self.bias = nn.Parameter(torch.zeros(num_features))
        self.register_buffer("running_mean", torch.zeros(num_features))
        self.register_buffer("running_var", torch.ones(num_features))

    def forward(self, x):
        rows = x if x.dim() == 2 else x.transpose(1, 2).reshape(-1, x.shape[1])  # (N*L, C)
        if self.training:
            mean = rows.mean(0)
            var = rows.var(0, unbiased=False)
            with torch.no_grad():
                m = self.momentum
                self.running_mean.copy_((1 - m) * self.running_mean + m * mean)
                self.running_var.copy_((1 - m) * self.running_var + m * rows.var(0, unbiased=True))
        else:
            mean, var = self.running_mean, self.running_var
        y = (rows - mean) / torch.sqrt(var + self.eps) * self.weight + self.bias
        return y if x.dim() == 2 else y.reshape(x.shape[0], x.shape[2], -1).transpose(1, 2)
