# kata: batchnorm
# why: new buffer tensors assigned (self.running_mean = ...) from detached statistics
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
        dims = (0,) if x.dim() == 2 else (0, 2)
        shape = (1, -1) if x.dim() == 2 else (1, -1, 1)
        if self.training:
            n = x.numel() // self.num_features
            mean = x.mean(dim=dims)
            var = x.var(dim=dims, unbiased=False)
            m = self.momentum
            self.running_mean = (1 - m) * self.running_mean + m * mean.detach()
            self.running_var = (1 - m) * self.running_var + m * x.var(dim=dims, unbiased=True).detach()
        else:
            mean, var = self.running_mean, self.running_var
        return self.weight.view(shape) * (x - mean.view(shape)) / (var.view(shape) + self.eps).sqrt() + self.bias.view(shape)
