"""triton-online-softmax's reference and the right streaming kernel against torch.softmax, on rows longer than
any block.

Measured (torch 2.13 CPU, triton 3.9.0 interpreter; 24 draws of M ≤ 4, N ≤ 600 as column slices, values ×1, ×10
and ×100 (float16: ×3), max absolute difference):

| check | float64 | float32 | float16 |
|---|---|---|---|
| reference (float64, rounded once) vs torch.softmax in the input's dtype (float16: computed in float32) | 6.7e-16 | 1.8e-07 | 0 |
| the known mistakes' right kernel (BLOCK 64, up to 10 blocks a row; 8 draws), interpreted, vs torch.softmax | — | 2.4e-07 | 0 |

In float16 all three round to the same values on these draws (the bound allows one float16 ulp near 0.25, where
torch rounding its float32 result and the reference its float64 one may differ); the float32 differences are a
few float32 ulps, well inside the tolerance (1e-4, 1e-5).
"""
from __future__ import annotations

import pytest
import torch

from checker.text import catalog
from tests.spec_support import reference_of

KATA = "triton-online-softmax"


def _draws(dtype: torch.dtype, count: int = 24):
    g = torch.Generator().manual_seed(0)
    for i in range(count):
        M, N = int(torch.randint(1, 5, (1,), generator=g)), int(torch.randint(1, 601, (1,), generator=g))
        scale = (1.0, 10.0, 100.0 if dtype != torch.float16 else 3.0)[i % 3]
        yield (torch.randn(M, N + 7, generator=g, dtype=torch.float64) * scale).to(dtype)[:, :N]  # a column slice


def _library(x: torch.Tensor) -> torch.Tensor:
    return torch.softmax(x.float(), dim=-1).half() if x.dtype == torch.float16 else torch.softmax(x, dim=-1)


@pytest.mark.parametrize("dtype, bound", [(torch.float64, 1e-15), (torch.float32, 3e-7), (torch.float16, 2.5e-4)])
def test_the_reference_agrees_with_torch_softmax(dtype, bound):
    ref = reference_of(catalog.get(KATA))
    worst = max(float((ref(x).double() - _library(x).double()).abs().max()) for x in _draws(dtype))
    assert worst <= bound, worst


@pytest.mark.kernels
def test_the_streaming_kernel_agrees_with_torch_softmax():
    pytest.importorskip("triton")
    from checker.judge import kernels

    kernels.enter_interpreter()
    from checker.specs._kernel_mistakes import triton_online_softmax as known

    for dtype, bound in ((torch.float32, 3e-7), (torch.float16, 2.5e-4)):
        worst = max(float((known.right(x, BLOCK=64).double() - _library(x).double()).abs().max())
                    for x in _draws(dtype, 8))
        assert worst <= bound, (dtype, worst)
