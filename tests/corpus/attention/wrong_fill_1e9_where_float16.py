# kata: attention
# why: torch.where with torch.tensor(-1e9, dtype=scores.dtype): -inf in float16, so fully-masked rows turn NaN there
# mistake: fill_minus_1e9_in_float16
import math, torch, torch.nn as nn
class ScaledDotProductAttention(nn.Module):
    def __init__(self, dropout_p=0.0):
        super().__init__(); self.dropout = nn.Dropout(dropout_p)
    def forward(self, q, k, v, mask=None):
        s = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(q.size(-1))
        if mask is not None:
            s = torch.where(mask, s, torch.tensor(-1e9, dtype=s.dtype, device=s.device))
        w = self.dropout(torch.softmax(s, dim=-1))
        return w @ v, w
