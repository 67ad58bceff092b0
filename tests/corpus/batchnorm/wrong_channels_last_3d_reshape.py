# kata: batchnorm
# why: flattens a 3-D input with reshape(-1, C) as if it were [N, L, C]
# mistake: channels_last_3d
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
        C = self.weight.shape[0]
        rows = x.reshape(-1, C)
        if self.training:
            mean = rows.mean(0)
            var = rows.var(0, unbiased=False)
            m = rows.shape[0]
            with torch.no_grad():
                self.running_mean.copy_((1 - self.momentum) * self.running_mean + self.momentum * mean)
                self.running_var.copy_((1 - self.momentum) * self.running_var + self.momentum * var * m / max(m - 1, 1))
        else:
            mean, var = self.running_mean, self.running_var
        y = (rows - mean) / torch.sqrt(var + self.eps) * self.weight + self.bias
        return y.reshape(x.shape)
