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
        reduce_dims = (0,) if x.dim() == 2 else (0, 2)
        view = (1, -1) if x.dim() == 2 else (1, -1, 1)

        if self.training:
            batch_mean = x.mean(reduce_dims)
            batch_var = x.var(reduce_dims, unbiased=False)
            n = x.numel() / x.shape[1]
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * batch_mean
            self.running_var = (1 - self.momentum) * self.running_var + self.momentum * batch_var * n / (n - 1)
            mean, var = batch_mean, batch_var
        else:
            mean, var = self.running_mean, self.running_var

        x_hat = (x - mean.view(view)) / torch.sqrt(var.view(view) + self.eps)
        return x_hat * self.weight.view(view) + self.bias.view(view)
