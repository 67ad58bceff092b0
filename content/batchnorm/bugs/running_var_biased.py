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
        C = self.num_features
        # [N, C] or [N, C, L] -> rows of C: every row is one sample of every channel
        rows = x if x.dim() == 2 else x.transpose(1, 2).reshape(-1, C)

        if self.training:
            mean = rows.mean(0)
            var = ((rows - mean) ** 2).mean(0)
            with torch.no_grad():
                self.running_mean.copy_((1 - self.momentum) * self.running_mean + self.momentum * mean)
                self.running_var.copy_((1 - self.momentum) * self.running_var + self.momentum * var)
        else:
            mean, var = self.running_mean, self.running_var

        out = (rows - mean) / torch.sqrt(var + self.eps) * self.weight + self.bias
        if x.dim() == 3:
            N, _, L = x.shape
            out = out.reshape(N, L, C).transpose(1, 2)
        return out
