# expect: pass
# why: FlashAttention forward for one head ([S, D] q, k, v): BM queries per program stream BN keys at a time with
# the online softmax; causal keeps keys j <= i.
import torch
import triton
import triton.language as tl


@triton.jit
def flash_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, S, sm_scale, stride_s, stride_d,
                     BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BM + tl.arange(0, BM)
    dims = tl.arange(0, D)
    q = tl.load(q_ptr + rows[:, None] * stride_s + dims[None, :] * stride_d, mask=rows[:, None] < S, other=0.0)
    m = tl.full((BM,), -float("inf"), tl.float32)
    l = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for start in range(0, S, BN):
        keys = start + tl.arange(0, BN)
        k = tl.load(k_ptr + keys[:, None] * stride_s + dims[None, :] * stride_d, mask=keys[:, None] < S, other=0.0)
        v = tl.load(v_ptr + keys[:, None] * stride_s + dims[None, :] * stride_d, mask=keys[:, None] < S, other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        keep = keys[None, :] < S
        if CAUSAL:
            keep = keep & (keys[None, :] <= rows[:, None])
        s = tl.where(keep, s, -float("inf"))
        m_new = tl.maximum(m, tl.max(s, axis=1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m - m_new)
        l = l * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m = m_new
    o = acc / l[:, None]
    tl.store(o_ptr + rows[:, None] * stride_s + dims[None, :] * stride_d, o.to(o_ptr.dtype.element_ty),
             mask=rows[:, None] < S)


def flash_attention(q, k, v, causal=False, BM=32, BN=32):
    S, D = q.shape
    o = torch.empty_like(q)
    flash_fwd_kernel[(triton.cdiv(S, BM),)](q, k, v, o, S, 1.0 / D ** 0.5, q.stride(0), q.stride(1),
                                          BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o
