# kata: batchnorm
# why: flattens to rows, torch.var_mean (unbiased by default) for the normalisation too
# mistake: normalised_with_unbiased_var
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
        C = x.shape[1]
        rows = x.transpose(0, 1).reshape(C, -1) if x.dim() == 3 else x.t()
        if self.training:
            var, mean = torch.var_mean(rows, dim=1)
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * mean.detach()
            self.running_var = (1 - self.momentum) * self.running_var + self.momentum * var.detach()
        else:
            mean, var = self.running_mean, self.running_var
        view = (1, C, 1) if x.dim() == 3 else (1, C)
        y = (x - mean.view(view)) * torch.rsqrt(var.view(view) + self.eps)
        return self.weight.view(view) * y + self.bias.view(view)
