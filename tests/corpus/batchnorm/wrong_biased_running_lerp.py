# kata: batchnorm
# why: the running variance gets the biased batch variance (torch.lerp)
# mistake: running_var_biased
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
        if self.training:
            var, mean = torch.var_mean(x, dims, unbiased=False)
            with torch.no_grad():
                self.running_mean.copy_(torch.lerp(self.running_mean, mean, self.momentum))
                self.running_var.copy_(torch.lerp(self.running_var, var, self.momentum))
        else:
            mean, var = self.running_mean, self.running_var
        return self.weight.view(shape) * (x - mean.view(shape)) / torch.sqrt(var.view(shape) + self.eps) + self.bias.view(shape)
