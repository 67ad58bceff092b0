# kata: batchnorm
# why: statistics over dim 0 only: for [N, C, L] one per (channel, position) instead of per channel
# mistake: stats_over_batch_only
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
        shape = (1, -1) if x.dim() == 2 else (1, -1, 1)
        if self.training:
            n = x.shape[0]
            var, mean = torch.var_mean(x, 0, keepdim=True, correction=0)
            with torch.no_grad():
                bm = mean.reshape(-1) if x.dim() == 2 else mean.mean(-1).reshape(-1)
                bv = var.reshape(-1) if x.dim() == 2 else var.mean(-1).reshape(-1)
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * bm)
                self.running_var.mul_(1 - self.momentum).add_(self.momentum * bv * n / max(n - 1, 1))
            return (x - mean) / torch.sqrt(var + self.eps) * self.weight.view(shape) + self.bias.view(shape)
        m, v = self.running_mean.view(shape), self.running_var.view(shape)
        return (x - m) / torch.sqrt(v + self.eps) * self.weight.view(shape) + self.bias.view(shape)
