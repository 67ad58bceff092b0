# kata: flash-attention
# why: calls PyTorch's fused kernel (which is flash attention on a GPU): banned, the point is to write it
# mistake: top_left_causal
import torch.nn.functional as F


def flash_attention(q, k, v, block_size=64, causal=False):
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
