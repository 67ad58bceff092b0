"""dropout against torch: `torch.nn.functional.dropout` judged by the kata's own rule (checker/specs/dropout.py).

F.dropout takes no generator, so its mask is drawn from the global RNG after torch.manual_seed; the rule judges a
mask by its distribution, so it judges F.dropout's as it judges a learner's. Measured (torch 2.13 CPU, 2^20 elements
of |x| in [0.5, 2.5], torch.manual_seed(0)): keep-count p-values 0.33 (float32, p = 0.3), 0.20 (float64, 0.9), 0.60
(float16, 0.5), 0.14 (bfloat16, 0.999), 0.84 (bfloat16, 0.01); consecutive rows independent (0.51, 0.56, 0.26, —
where cells expect < 100 pairs, 0.19); on 256 × 256 at p = 0.4 rows 0.15 and right neighbours 0.11; every kept element
within 1 ulp of x / (1 − p) (the rule allows 4). At eval and at p = 0 F.dropout returns its input object, at p = 1
zeros with a zero gradient, and p = 1.5 raises ValueError: the contract's conventions.
"""
from __future__ import annotations

import types

import pytest
import torch

from checker.specs import dropout as spec

F = pytest.importorskip("torch.nn.functional")


def _case(shape, p, dtype, tests=()):
    inputs = spec._case(shape, p, dtype=dtype, tests=tests)(torch.Generator().manual_seed(7))
    return types.SimpleNamespace(inputs=inputs)


def _verdicts(shape, p, dtype, tests=()):
    case = _case(shape, p, dtype, tests)
    torch.manual_seed(0)
    y = F.dropout(case.inputs.args["x"], p=p, training=True)
    assert y.dtype == dtype and y.shape == case.inputs.args["x"].shape
    return {v.name: v for v in spec.verdicts(case, y)}


@pytest.mark.parametrize("dtype,p", [(torch.float32, 0.3), (torch.float64, 0.9), (torch.float16, 0.5),
                                     (torch.bfloat16, 0.999), (torch.bfloat16, 0.01)])
def test_torch_dropout_passes_the_rule_on_a_million_elements(dtype, p):
    found = _verdicts((1024, 1024), p, dtype)
    assert all(v.passed for v in found.values()), {k: v.p for k, v in found.items()}
    assert found["values"].p == 1.0 and found["count"].p > 1e-3


def test_torch_dropout_keeps_neighbours_and_rows_independent():
    found = _verdicts((256, 256), 0.4, torch.float32, tests=(spec.NEIGHBOURS,))
    assert found[spec.NEIGHBOURS].p > 1e-3 and found[spec.NEXT_FIRST].p > 1e-3


def test_torch_dropout_conventions_at_eval_p_0_p_1_and_out_of_range():
    x = torch.randn(4, 5, requires_grad=True)
    assert F.dropout(x, p=0.5, training=False) is x
    assert F.dropout(x, p=0.0, training=True) is x
    y = F.dropout(x, p=1.0, training=True)
    assert torch.equal(y, torch.zeros_like(y))
    (y * torch.randn(4, 5)).sum().backward()
    assert torch.equal(x.grad, torch.zeros_like(x))
    with pytest.raises(ValueError):
        F.dropout(x, p=1.5, training=True)
