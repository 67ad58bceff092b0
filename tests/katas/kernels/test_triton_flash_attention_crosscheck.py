"""triton-flash-attention's reference and the right kernel against PyTorch's own attention,
F.scaled_dot_product_attention (is_causal: top-left, which is the contract's alignment for Lq = Lk).

Measured (torch 2.13 CPU, triton 3.9.0 interpreter; 12 draws of B ≤ 2, H ≤ 3, S ≤ 64, D 16, 32 or 64, causal every
other draw, q and k ×1 or ×3, max absolute difference):

| check | float64 | float32 | float16 |
|---|---|---|---|
| reference (float64, rounded once) vs F.scaled_dot_product_attention in the input's dtype (float16: computed in float32) | 3.1e-15 | 9.5e-06 | 9.8e-04 |
| the known mistakes' right kernel (BM = BN = 32), interpreted, vs F.scaled_dot_product_attention (6 draws) | — | 9.5e-06 | 2.0e-03 |

The float32 differences are those of PyTorch's own float32 attention (the reference and the kernel agree with each
other far more closely, see the specs test); the float16 ones are a float16 ulp or two of outputs up to about 2 (p is
rounded to float16 for the p·v dot, as on a GPU): all inside the tolerances (1e-4, 1e-5) and (1e-2, 1e-2).
"""
from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from checker.text import catalog
from tests.spec_support import reference_of

KATA = "triton-flash-attention"


def _draws(dtype: torch.dtype, count: int = 12):
    g = torch.Generator().manual_seed(0)
    for i in range(count):
        B, H = int(torch.randint(1, 3, (1,), generator=g)), int(torch.randint(1, 4, (1,), generator=g))
        S, D = int(torch.randint(1, 65, (1,), generator=g)), (16, 32, 64)[i % 3]
        scale = (1.0, 3.0)[i % 2]
        q, k = ((torch.randn(B, H, S, D, generator=g, dtype=torch.float64) * scale).to(dtype) for _ in range(2))
        v = torch.randn(B, H, S, D, generator=g, dtype=torch.float64).to(dtype)
        yield q, k, v, i % 2 == 1


def _library(q, k, v, causal):
    if q.dtype == torch.float16:
        return F.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=causal).half()
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)


@pytest.mark.parametrize("dtype, bound", [(torch.float64, 1e-14), (torch.float32, 2e-5), (torch.float16, 2e-3)])
def test_the_reference_agrees_with_scaled_dot_product_attention(dtype, bound):
    ref = reference_of(catalog.get(KATA))
    worst = max(float((ref(q, k, v, causal).double() - _library(q, k, v, causal).double()).abs().max())
                for q, k, v, causal in _draws(dtype))
    assert worst <= bound, worst


@pytest.mark.kernels
def test_the_kernel_agrees_with_scaled_dot_product_attention():
    pytest.importorskip("triton")
    from checker.judge import kernels

    kernels.enter_interpreter()
    from checker.specs._kernel_mistakes import triton_flash_attention as known

    for dtype, bound in ((torch.float32, 2e-5), (torch.float16, 4e-3)):
        worst = max(float((known.right(q, k, v, causal).double() - _library(q, k, v, causal).double()).abs().max())
                    for q, k, v, causal in _draws(dtype, 6))
        assert worst <= bound, (dtype, worst)
