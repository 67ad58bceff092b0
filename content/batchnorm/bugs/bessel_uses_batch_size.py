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
            xc = x[:, c]  # [N] or [N, L]: every value of channel c
            gamma, beta = self.weight[c], self.bias[c]
            if self.training:
                mu = xc.mean()
                var = ((xc - mu) ** 2).mean()
                n = x.shape[0]
                with torch.no_grad():
                    m = self.momentum
                    self.running_mean[c] = (1 - m) * self.running_mean[c] + m * mu
                    self.running_var[c] = (1 - m) * self.running_var[c] + m * var * n / (n - 1)
            else:
                mu, var = self.running_mean[c], self.running_var[c]
            outs.append(gamma * (xc - mu) / torch.sqrt(var + self.eps) + beta)
        return torch.stack(outs, dim=1)
