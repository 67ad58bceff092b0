# kata: flash-attention
# why: preallocated accumulators updated in place (mul_, add_, baddbmm-style matmul out=, copy_), scores scaled into a reused buffer
import math

import torch


def flash_attention(q, k, v, block_size=64, causal=False):
    B, H, Lq, D = q.shape
    Lk, Dv = k.shape[2], v.shape[3]
    dt = torch.promote_types(q.dtype, torch.float32)
    qf = (q.to(dt) * (1.0 / math.sqrt(D))).reshape(B * H, Lq, D)
    kf = k.to(dt).reshape(B * H, Lk, D)
    vf = v.to(dt).reshape(B * H, Lk, Dv)
    m = torch.full((B * H, Lq, 1), -math.inf, dtype=dt, device=q.device)
    l = torch.zeros((B * H, Lq, 1), dtype=dt, device=q.device)
    acc = torch.zeros((B * H, Lq, Dv), dtype=dt, device=q.device)
    s = torch.empty((B * H, Lq, min(block_size, Lk)), dtype=dt, device=q.device)  # one buffer, reused
    pv = torch.empty_like(acc)
    qpos = torch.arange(Lq, device=q.device).view(Lq, 1) + (Lk - Lq)
    for start in range(0, Lk, block_size):
        n = min(block_size, Lk - start)
        sb = s[:, :, :n]
        torch.bmm(qf, kf[:, start:start + n].transpose(1, 2), out=sb)
        if causal:
            sb.masked_fill_(torch.arange(start, start + n, device=q.device).view(1, n) > qpos, -math.inf)
        m_new = torch.maximum(m, sb.amax(dim=2, keepdim=True))
        alpha = (m - m_new).exp_()
        sb.sub_(m_new).exp_()
        l.mul_(alpha).add_(sb.sum(dim=2, keepdim=True))
        torch.bmm(sb, vf[:, start:start + n], out=pv)
        acc.mul_(alpha).add_(pv)
        m.copy_(m_new)
    acc.div_(l)
    return acc.view(B, H, Lq, Dv).to(q.dtype)
