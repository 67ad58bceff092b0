"""Batch normalisation over [N, C] or [N, C, L], with running statistics.

Ioffe & Szegedy, "Batch Normalization" (2015), Algorithm 1: in training, each channel is normalised
by the mini-batch mean μ_B and the biased variance σ²_B of its m = N·L values, then scaled and
shifted: y = γ · (x − μ_B) / sqrt(σ²_B + ε) + β. Algorithm 2: at inference the population statistics
replace them, with the unbiased variance m/(m − 1) · σ²_B. torch.nn.BatchNorm1d estimates those by an
exponential moving average, new = (1 − momentum) · old + momentum · batch, updated outside autograd.
"""
import torch
import torch.nn as nn


class BatchNorm1d(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.weight = nn.Parameter(torch.ones(num_features))  # γ
        self.bias = nn.Parameter(torch.zeros(num_features))  # β
        # Buffers, not parameters: saved in the state_dict and moved by .to(), never trained.
        self.register_buffer("running_mean", torch.zeros(num_features))
        self.register_buffer("running_var", torch.ones(num_features))

    def forward(self, x):
        """x (N, C) or (N, C, L) -> the same shape, each channel normalised over N (and L)."""
        assert x.dim() in (2, 3) and x.shape[1] == self.num_features, f"expected x [N, {self.num_features}(, L)], got {tuple(x.shape)}"
        dims = (0,) if x.dim() == 2 else (0, 2)  # every value of one channel
        shape = (1, -1) if x.dim() == 2 else (1, -1, 1)  # a per-channel (C,) vector broadcast over x
        if self.training:
            m = x.numel() // self.num_features  # values per channel, N·L
            assert m > 1, "training needs more than one value per channel"
            mean = x.mean(dims)  # (C,)
            var = ((x - mean.view(shape)) ** 2).mean(dims)  # (C,): biased, σ²_B of Algorithm 1
            with torch.no_grad():  # the running estimates are not part of the graph
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean)
                self.running_var.mul_(1 - self.momentum).add_(self.momentum * var * m / (m - 1))  # unbiased
        else:
            mean, var = self.running_mean, self.running_var
        x_hat = (x - mean.view(shape)) / torch.sqrt(var.view(shape) + self.eps)
        return x_hat * self.weight.view(shape) + self.bias.view(shape)
