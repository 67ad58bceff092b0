# kata: mha
# why: F.linear with the modules' weights, einsum scores, ValueError for bad dims, finfo.min fill
import torch, torch.nn as nn, torch.nn.functional as F
class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        if embed_dim % num_heads:
            raise ValueError("embed_dim must be divisible by num_heads")
        self.h, self.d = num_heads, embed_dim // num_heads
        self.w_q, self.w_k, self.w_v, self.w_o = (nn.Linear(embed_dim, embed_dim) for _ in range(4))
    def forward(self, x, mask=None):
        B, L, C = x.shape
        q, k, v = (F.linear(x, m.weight, m.bias).reshape(B, L, self.h, self.d).transpose(1, 2) for m in (self.w_q, self.w_k, self.w_v))
        s = torch.einsum("bhqd,bhkd->bhqk", q, k) * self.d ** -0.5
        if mask is not None:
            s = s.masked_fill(~mask, torch.finfo(s.dtype).min)
        w = s.softmax(-1)
        o = (w @ v).transpose(1, 2).reshape(B, L, C)
        return self.w_o(o), w
