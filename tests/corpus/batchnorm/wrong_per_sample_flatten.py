# kata: batchnorm
# why: each sample flattened and normalised on its own (x.flatten(1)), its mean and variance fed to the running buffers
# mistake: per_sample_statistics
import torch
import torch.nn as nn


class BatchNorm1d(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1):
        super().__init__()
        self.eps = eps
        self.momentum = momentum
        self.weight = nn.Parameter(torch.ones(num_features))
        self.bias = nn.Parameter(torch.zeros(num_features))
        self.register_buffer("running_mean", torch.zeros(num_features))
        self.register_buffer("running_var", torch.ones(num_features))

    def forward(self, x):
        shape = (1, -1, 1) if x.dim() == 3 else (1, -1)
        if not self.training:
            y = (x - self.running_mean.reshape(shape)) / torch.sqrt(self.running_var.reshape(shape) + self.eps)
            return y * self.weight.reshape(shape) + self.bias.reshape(shape)
        flat = x.flatten(1)
        mean = flat.mean(1)
        var = ((flat - mean[:, None]) ** 2).mean(1)
        count = flat.shape[1]
        with torch.no_grad():
            self.running_mean.lerp_(mean, self.momentum)
            self.running_var.lerp_(var * count / max(count - 1, 1), self.momentum)
        y = (flat - mean[:, None]) / torch.sqrt(var[:, None] + self.eps)
        return y.view_as(x) * self.weight.reshape(shape) + self.bias.reshape(shape)
