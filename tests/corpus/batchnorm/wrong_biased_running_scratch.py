# kata: batchnorm
# why: a from-scratch version: one variance, biased, for both the normalisation and the running average
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
        if x.dim() == 3:
            N, C, L = x.shape
            flat = x.permute(0, 2, 1).reshape(-1, C)
        else:
            flat = x
        if self.training:
            mu = flat.mean(0)
            sigma2 = ((flat - mu) ** 2).mean(0)
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * mu.detach()
            self.running_var = (1 - self.momentum) * self.running_var + self.momentum * sigma2.detach()
        else:
            mu, sigma2 = self.running_mean, self.running_var
        out = (flat - mu) / torch.sqrt(sigma2 + self.eps) * self.weight + self.bias
        if x.dim() == 3:
            out = out.reshape(N, L, C).permute(0, 2, 1)
        return out
