"""triton-layernorm's reference and a right kernel against torch.nn.functional.layer_norm.

Measured (torch 2.13 CPU, triton 3.9.0 interpreter; 24 draws per dtype of M ≤ 8, N ≤ 300 as column slices, x offset
by 0, 3 or 100, eps 1e-5, 1e-3 or 0.1, weight 1 + 0.5·N(0, 1), bias 0.5·N(0, 1); max absolute difference):

| check | float64 | float32 | float16 |
|---|---|---|---|
| reference (float64, rounded once) vs F.layer_norm in the input's dtype (float16: computed in float32) | 6.2e-14 | 2.1e-05 | 3.9e-03 |
| the known mistakes' own right kernel, interpreted, vs F.layer_norm | — | 3.2e-05 | 2.0e-03 |
| that kernel vs the reference | — | 1.8e-05 | 3.9e-03 |

The float32 differences come from the rows offset by 100, where rounding the mean to float32 moves y by ~1e-5 in
torch's kernel as in the learner's (the reason `mean_100` allows atol 2e-4); the float16 ones are one float16 ulp
of values between 4 and 8 (each side rounds its own wider result once). All are inside the kata's tolerances.
"""
from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from checker.text import catalog
from tests.spec_support import reference_of

KATA = "triton-layernorm"


def _draws(dtype: torch.dtype, count: int = 24):
    g = torch.Generator().manual_seed(0)
    for i in range(count):
        M, N = int(torch.randint(1, 9, (1,), generator=g)), int(torch.randint(1, 301, (1,), generator=g))
        x = (torch.randn(M, N + 7, generator=g, dtype=torch.float64) + (0.0, 3.0, 100.0)[i % 3]).to(dtype)[:, :N]
        weight = (1 + 0.5 * torch.randn(N, generator=g, dtype=torch.float64)).to(dtype)
        bias = (0.5 * torch.randn(N, generator=g, dtype=torch.float64)).to(dtype)
        yield x, weight, bias, (1e-5, 1e-3, 0.1)[i % 3]


def _library(x, weight, bias, eps):
    if x.dtype == torch.float16:
        return F.layer_norm(x.float(), x.shape[1:], weight.float(), bias.float(), eps).half()
    return F.layer_norm(x, x.shape[1:], weight, bias, eps)


@pytest.mark.parametrize("dtype, bound", [(torch.float64, 1e-12), (torch.float32, 5e-5), (torch.float16, 8e-3)])
def test_the_reference_agrees_with_f_layer_norm(dtype, bound):
    ref = reference_of(catalog.get(KATA))
    worst = max(float((ref(*d).double() - _library(*d).double()).abs().max()) for d in _draws(dtype))
    assert worst <= bound, worst


@pytest.mark.parametrize("dtype, bound", [(torch.float32, 6e-5), (torch.float16, 8e-3)])
def test_a_right_kernel_agrees_with_f_layer_norm(dtype, bound):
    pytest.importorskip("triton")
    from checker.judge import kernels

    kernels.enter_interpreter()
    from checker.specs._kernel_mistakes import triton_layernorm as known

    worst = max(float((known.layernorm(*d).double() - _library(*d).double()).abs().max()) for d in _draws(dtype, 12))
    assert worst <= bound, worst
