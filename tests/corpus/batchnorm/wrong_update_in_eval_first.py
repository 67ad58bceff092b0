# kata: batchnorm
# why: eval normalises with the running statistics read before the update, but still updates them
# mistake: running_stats_updated_in_eval
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
        dims = [0, 2] if x.dim() == 3 else [0]
        shape = [1, -1, 1] if x.dim() == 3 else [1, -1]
        rm, rv = self.running_mean.clone(), self.running_var.clone()
        bm = x.mean(dims)
        bv = x.var(dims, unbiased=False)
        n = x.numel() // x.shape[1]
        self.running_mean.copy_((1 - self.momentum) * rm + self.momentum * bm.detach())
        self.running_var.copy_((1 - self.momentum) * rv + self.momentum * bv.detach() * n / max(n - 1, 1))
        mean, var = (bm, bv) if self.training else (rm, rv)
        y = (x - mean.reshape(shape)) / (var.reshape(shape) + self.eps).sqrt()
        return y * self.weight.reshape(shape) + self.bias.reshape(shape)
