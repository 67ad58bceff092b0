# kata: batchnorm
# why: statistics over each sample's features (dim 1 onwards) instead of over the batch: a LayerNorm in train mode
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
        view = [1, -1] + [1] * (x.dim() - 2)
        if self.training:
            dims = list(range(1, x.dim()))
            mu = x.mean(dim=dims, keepdim=True)
            var = x.var(dim=dims, keepdim=True, unbiased=False)
            n = x[0].numel()
            with torch.no_grad():
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mu.flatten())
                self.running_var.mul_(1 - self.momentum).add_(self.momentum * var.flatten() * n / max(n - 1, 1))
        else:
            mu = self.running_mean.view(view)
            var = self.running_var.view(view)
        return (x - mu) * torch.rsqrt(var + self.eps) * self.weight.view(view) + self.bias.view(view)
