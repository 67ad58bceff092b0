# kata: swiglu
# why: flattens the leading dims to [N, dim] with reshape, uses matmul with transposed weights, and restores the shape
import torch
import torch.nn as nn
import torch.nn.functional as F


class SwiGLU(nn.Module):
    def __init__(self, dim, hidden_dim):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)

    def forward(self, x):
        shape = x.shape
        flat = x.reshape(-1, shape[-1])
        h = F.silu(flat @ self.w1.weight.T) * (flat @ self.w3.weight.T)
        return (h @ self.w2.weight.T).reshape(shape)
