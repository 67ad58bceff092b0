# kata: batchnorm
# why: a per-channel loop that reads the running statistics nowhere in forward
# mistake: batch_stats_in_eval
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
        outs = []
        for c in range(x.shape[1]):
            xc = x[:, c]
            m = xc.mean()
            v = ((xc - m) ** 2).mean()
            if self.training:
                n = xc.numel()
                with torch.no_grad():
                    self.running_mean[c] = (1 - self.momentum) * self.running_mean[c] + self.momentum * m
                    self.running_var[c] = (1 - self.momentum) * self.running_var[c] + self.momentum * v * n / max(n - 1, 1)
            outs.append((xc - m) / torch.sqrt(v + self.eps) * self.weight[c] + self.bias[c])
        return torch.stack(outs, dim=1)
