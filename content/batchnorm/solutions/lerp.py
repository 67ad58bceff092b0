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
            n = x.numel() / x.size(1)
            mean = x.mean(dims)
            var = (x - mean.reshape(shape)).pow(2).mean(dims)
            self.running_mean.lerp_(mean.detach(), self.momentum)
            self.running_var.lerp_(var.detach() * (n / (n - 1)), self.momentum)
        else:
            mean, var = self.running_mean, self.running_var
        x_hat = (x - mean.reshape(shape)) * torch.rsqrt(var.reshape(shape) + self.eps)
        return x_hat * self.weight.reshape(shape) + self.bias.reshape(shape)
