# kata: numpy-mha
# why: banned: hands the work to torch's F.multi_head_attention_forward (the computation itself is right)
# mistake: none
import numpy as np
import torch
import torch.nn.functional as F


def multi_head_attention(x, w_q, w_k, w_v, w_o, num_heads, mask=None, b_q=None, b_k=None, b_v=None, b_o=None):
    t = torch.from_numpy(x)
    C = x.shape[-1]
    zeros = np.zeros(C, dtype=x.dtype)
    bias = torch.from_numpy(np.concatenate([zeros if b is None else b for b in (b_q, b_k, b_v)]))
    w_in = torch.from_numpy(np.concatenate([w_q.T, w_k.T, w_v.T]))
    seq = t.transpose(0, 1) if t.dim() == 3 else t
    blocked = None if mask is None else ~torch.from_numpy(np.broadcast_to(mask, x.shape[:-2] + (num_heads, x.shape[-2], x.shape[-2])).reshape(-1, x.shape[-2], x.shape[-2]).copy())
    out, attn = F.multi_head_attention_forward(
        seq, seq, seq, C, num_heads, w_in, bias, None, None, False, 0.0,
        torch.from_numpy(w_o.T.copy()), None if b_o is None else torch.from_numpy(b_o),
        need_weights=True, attn_mask=blocked, average_attn_weights=False)
    out = out.transpose(0, 1) if t.dim() == 3 else out
    return out.numpy(), attn.numpy()
