"""triton-softmax's reference and a right kernel against torch.softmax, the library's own fused softmax.

Measured (torch 2.13 CPU, triton 3.9.0 interpreter; 60 draws of M ≤ 8, N ≤ 300, column slices, values ×1, ×10,
×100, max absolute difference):

| check | float64 | float32 | float16 |
|---|---|---|---|
| reference (float64, rounded once) vs torch.softmax in the input's dtype (float16: computed in float32) | 5.6e-16 | 1.8e-07 | 1.2e-04 |
| the known mistakes' own right kernel, interpreted, vs torch.softmax | — | 2.4e-07 | 1.2e-04 |
| that kernel vs the reference | — | 2.4e-07 | 1.9e-06 |

float16 differences of 1.2e-4 are one float16 ulp near 0.25 (torch rounds its float32 result, the reference its
float64 one): well inside the float16 tolerance (1e-2, 1e-2), as the float32 ones are inside (1e-4, 1e-5).
"""
from __future__ import annotations

import pytest
import torch

from checker.text import catalog
from tests.spec_support import reference_of

pytestmark = pytest.mark.kernels

KATA = "triton-softmax"


def _draws(dtype: torch.dtype, count: int = 24):
    g = torch.Generator().manual_seed(0)
    for i in range(count):
        M, N = int(torch.randint(1, 9, (1,), generator=g)), int(torch.randint(1, 301, (1,), generator=g))
        scale = (1.0, 10.0, 100.0 if dtype != torch.float16 else 3.0)[i % 3]
        yield (torch.randn(M, N + 7, generator=g, dtype=torch.float64) * scale).to(dtype)[:, :N]  # a column slice


def _library(x: torch.Tensor) -> torch.Tensor:
    return torch.softmax(x.float(), dim=-1).half() if x.dtype == torch.float16 else torch.softmax(x, dim=-1)


@pytest.mark.parametrize("dtype, bound", [(torch.float64, 1e-15), (torch.float32, 3e-7), (torch.float16, 2.5e-4)])
def test_the_reference_agrees_with_torch_softmax(dtype, bound):
    ref = reference_of(catalog.get(KATA))
    worst = max(float((ref(x).double() - _library(x).double()).abs().max()) for x in _draws(dtype))
    assert worst <= bound, worst


def test_a_right_kernel_agrees_with_torch_softmax():
    pytest.importorskip("triton")
    from checker.judge import kernels

    kernels.enter_interpreter()
    from checker.specs._kernel_mistakes import triton_softmax as known

    def right(x):
        M, N = x.shape
        out = torch.empty((M, N), dtype=x.dtype, device=x.device)
        known.softmax_kernel[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=1 << (N - 1).bit_length())
        return out

    for dtype, bound in ((torch.float32, 3e-7), (torch.float16, 2.5e-4)):
        worst = max(float((right(x).double() - _library(x).double()).abs().max()) for x in _draws(dtype, 12))
        assert worst <= bound, (dtype, worst)
