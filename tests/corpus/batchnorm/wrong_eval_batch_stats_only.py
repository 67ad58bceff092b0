# kata: batchnorm
# why: updates the running statistics in train mode only, but normalises with the batch's statistics in eval too
# mistake: batch_stats_in_eval
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
        dims = (0,) if x.dim() == 2 else (0, 2)
        shape = (1, -1) if x.dim() == 2 else (1, -1, 1)
        mean = x.mean(dims)
        var = x.var(dims, unbiased=False)
        if self.training:
            n = x.numel() / x.shape[1]
            with torch.no_grad():
                self.running_mean.lerp_(mean, self.momentum)
                self.running_var.lerp_(var * n / (n - 1), self.momentum)
        return (x - mean.view(shape)) / (var.view(shape) + self.eps).sqrt() * self.weight.view(shape) + self.bias.view(shape)
