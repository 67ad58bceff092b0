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
        outs = []
        for c in range(self.num_features):
            xc = x[:, c]
            if self.training:
                values = xc.reshape(-1)
                n = values.numel()
                mean = values.mean()
                var = ((values - mean) ** 2).sum() / n
                with torch.no_grad():
                    self.running_mean[c] = (1 - self.momentum) * self.running_mean[c] + self.momentum * mean
                    self.running_var[c] = (1 - self.momentum) * self.running_var[c] + self.momentum * var * n / (n - 1)
            else:
                mean, var = self.running_mean[c], self.running_var[c]
            outs.append((xc - mean) / torch.sqrt(var + self.eps) * self.weight[c] + self.bias[c])
        return torch.stack(outs, dim=1)
