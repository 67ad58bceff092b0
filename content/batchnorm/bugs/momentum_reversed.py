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
        dims = [0] if x.dim() == 2 else [0, 2]
        shape = [1, -1] + [1] * (x.dim() - 2)

        if self.training:
            n = x.numel() // self.num_features
            var, mean = torch.var_mean(x, dims, correction=0)
            # exponential moving averages, the variance unbiased
            with torch.no_grad():
                self.running_mean.lerp_(mean, 1 - self.momentum)
                self.running_var.lerp_(var * n / (n - 1), 1 - self.momentum)
        else:
            mean, var = self.running_mean, self.running_var

        x_hat = (x - mean.view(shape)) * torch.rsqrt(var.view(shape) + self.eps)
        return self.weight.view(shape) * x_hat + self.bias.view(shape)
