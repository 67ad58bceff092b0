"""triton-reduce-sum's reference and a right kernel against torch.sum and math.fsum (the exactly rounded sum).

Measured (torch 2.13 CPU, triton 3.9.0 interpreter; every case of seeds 1-5: the named cases and 93 random draws each,
n ≤ 1000; differences in absolute terms and as a part of the case's tolerance, rtol 1e-4, atol 1e-5·max(1, Σ|x|)):

| check | float32 x | float16 x |
|---|---|---|
| reference (float64, rounded once) vs math.fsum rounded to float32, and vs torch.sum in float64 rounded | 0 (equal) | 0 (equal) |
| torch.sum(x, dtype=torch.float32) (torch's float32 accumulation) vs the reference | 7.6e-06 (0.19 %) | 3.8e-06 (0.06 %) |
| the known mistakes' own right kernel, interpreted, vs the reference | 5.7e-06 (0.19 %) | 3.8e-06 (0.06 %) |
| that kernel vs torch.sum(x, dtype=torch.float32) | 7.6e-06 (0.20 %) | 3.8e-06 (0.06 %) |

The float16 overflow case (1000 values in [300, 500], spacing 0.25) sums exactly in float32: every total there is equal.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from checker.judge import spec as spec_api
from checker.text import catalog
from tests.spec_support import cases, fresh, reference_of, spec_of

KATA = "triton-reduce-sum"
CPU = torch.device("cpu")


def _all(seeds=(1, 2)):
    return [c for seed in seeds for c in cases(KATA, seed)]


def test_the_reference_is_the_exactly_rounded_sum():
    ref = reference_of(catalog.get(KATA))
    for c in _all():
        x = c.inputs.args["x"]
        got = float(ref(**c.inputs.args))
        assert got == float(np.float32(math.fsum(x.double().tolist()))) == float(torch.sum(x.double()).float()), c.name


def test_torch_float32_accumulation_is_well_inside_the_tolerance():
    spec, ref = spec_of(KATA), reference_of(catalog.get(KATA))
    worst = 0.0
    for c in _all():
        e = float(ref(**c.inputs.args))
        rtol, atol = spec_api.tolerance(spec, c, torch.float32)
        worst = max(worst, abs(float(torch.sum(c.inputs.args["x"], dtype=torch.float32)) - e) / (atol + rtol * abs(e)))
    assert worst < 0.01, worst


def test_a_right_kernel_agrees_with_torch_sum():
    pytest.importorskip("triton")
    from checker.judge import kernels

    kernels.enter_interpreter()
    from checker.specs._kernel_mistakes import triton_reduce_sum as known

    spec, kata = spec_of(KATA), catalog.get(KATA)
    worst = 0.0
    for c in _all((1,)):
        got = float(spec.call(kata, known.total, fresh(c.inputs), CPU).value)
        library = float(torch.sum(c.inputs.args["x"], dtype=torch.float32))
        rtol, atol = spec_api.tolerance(spec, c, torch.float32)
        worst = max(worst, abs(got - library) / (atol + rtol * abs(library)))
    assert worst < 0.01, worst
