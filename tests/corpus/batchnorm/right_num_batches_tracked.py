# kata: batchnorm
# why: torch's num_batches_tracked buffer beside the two running statistics: a buffer the contract does not name is the module's own (neither loaded nor compared)
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
        self.register_buffer("num_batches_tracked", torch.tensor(0, dtype=torch.long))

    def forward(self, x):
        dims = (0,) if x.dim() == 2 else (0, 2)
        shape = (1, -1) if x.dim() == 2 else (1, -1, 1)
        if self.training:
            n = x.numel() // x.shape[1]
            var, mean = torch.var_mean(x, dims, correction=0)
            with torch.no_grad():
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean)
                self.running_var.mul_(1 - self.momentum).add_(self.momentum * var * n / (n - 1))
            m, v = mean, var
        else:
            m, v = self.running_mean, self.running_var
        return (x - m.view(shape)) / torch.sqrt(v.view(shape) + self.eps) * self.weight.view(shape) + self.bias.view(shape)
