# kata: mha
import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.embed_dim, self.num_heads = embed_dim, num_heads
        self.head_dim = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def _heads(self, t):
        B, L, _ = t.shape
        return t.reshape(B, L, self.num_heads, self.head_dim).permute(0, 2, 1, 3).reshape(B * self.num_heads, L, self.head_dim)

    def forward(self, x, mask=None):
        B, L, C = x.shape
        H = self.num_heads
        q, k, v = self._heads(self.w_q(x)), self._heads(self.w_k(x)), self._heads(self.w_v(x))
        bias = torch.zeros(B * H, L, L, dtype=x.dtype, device=x.device)
        scores = torch.baddbmm(bias, q, k.transpose(1, 2), alpha=self.head_dim ** -0.5).view(B, H, L, L)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        w = torch.softmax(scores, dim=-1)
        if mask is not None:
            w = w.masked_fill(~mask.any(-1, keepdim=True), 0.0)
        out = torch.bmm(w.reshape(B * H, L, L), v).view(B, H, L, self.head_dim)
        out = out.permute(0, 2, 1, 3).reshape(B, L, C)
        return self.w_o(out), w
