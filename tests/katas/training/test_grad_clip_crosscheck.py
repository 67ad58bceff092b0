"""grad-clip's reference against torch.nn.utils.clip_grad_norm_ (foreach on and off) and an independent float64
implementation by math.fsum over every entry.

Measured (torch 2.13 CPU), 80 draws per dtype (1-4 parameters, 0-dim to 2-D, a None grad in 1 of 5, gradients 1e-6
to 1e2, norm 2 and inf, max_norm 0.3 to 5 times the gradients' scale): the total norm and the clipped gradients
bit-identical to torch's, foreach on and off (difference 0: the reference takes torch's steps, per-gradient
vector_norm, the norm of the stacked norms, a clamped tensor coefficient); the total norm within 8.8e-8 (float32) /
2.1e-16 (float64) relative of the exact norm by math.fsum over every entry in float64; a None grad stays None and the
parameters' values are untouched in both. With no gradient at all torch returns `tensor(0.)` (float32, CPU), as the
reference does. Run with -s to see the figures of this run.
"""
from __future__ import annotations

import math

import pytest
import torch

from checker.judge.worker import load_entry
from checker.text import catalog

DRAWS = 80
FIGURES: dict[str, float] = {}


@pytest.fixture(autouse=True)
def _one_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _reference():
    return load_entry(catalog.REFERENCE_DIR / "grad_clip.py", "clip_grad_norm_", "crosscheck_grad_clip")


def _draw(g: torch.Generator, dtype: torch.dtype):
    n = int(torch.randint(1, 5, (1,), generator=g))
    scale = 10 ** float(torch.empty(()).uniform_(-6, 2, generator=g))
    values, grads = [], []
    for i in range(n):
        shape = tuple(int(d) for d in torch.randint(1, 5, (int(torch.randint(0, 3, (1,), generator=g)),), generator=g))
        values.append(torch.randn(shape, generator=g, dtype=torch.float64).to(dtype))
        none = i > 0 and float(torch.rand((), generator=g)) < 0.2
        grads.append(None if none else (scale * torch.randn(shape, generator=g, dtype=torch.float64)).to(dtype))
    norm_type = math.inf if float(torch.rand((), generator=g)) < 0.4 else 2.0
    max_norm = scale * float(torch.empty(()).uniform_(0.3, 5.0, generator=g))
    return values, grads, norm_type, max_norm


def _params(values, grads):
    params = [torch.nn.Parameter(v.clone()) for v in values]
    for p, gr in zip(params, grads):
        p.grad = None if gr is None else gr.clone()
    return params


def _fsum_norm(grads, norm_type) -> float:
    entries = [float(v) for gr in grads if gr is not None for v in gr.double().reshape(-1)]
    if norm_type == math.inf:
        return max(abs(v) for v in entries)
    return math.sqrt(math.fsum(v * v for v in entries))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_the_reference_is_torchs_clip_grad_norm(dtype):
    ref = _reference()
    g = torch.Generator().manual_seed(2026)
    worst_norm = worst_grad = worst_fsum = 0.0
    for _ in range(DRAWS):
        values, grads, norm_type, max_norm = _draw(g, dtype)
        mine = _params(values, grads)
        got = ref(mine, max_norm, norm_type)
        assert got.dtype == dtype and got.shape == ()
        exact = _fsum_norm(grads, norm_type)
        worst_fsum = max(worst_fsum, abs(float(got) - exact) / exact)
        for foreach in (False, True):
            theirs = _params(values, grads)
            want = torch.nn.utils.clip_grad_norm_(theirs, max_norm, norm_type, foreach=foreach)
            worst_norm = max(worst_norm, abs(float(got) - float(want)) / float(want))
            for p, q in zip(mine, theirs):
                assert (p.grad is None) == (q.grad is None)
                if p.grad is not None:
                    err = float((p.grad.double() - q.grad.double()).abs().max() / q.grad.double().abs().max())
                    worst_grad = max(worst_grad, err)
            for p, v in zip(theirs, values):
                assert torch.equal(p.detach(), v)
    name = str(dtype).removeprefix("torch.")
    FIGURES[f"total norm vs torch ({name}), relative"] = worst_norm
    FIGURES[f"total norm vs math.fsum ({name}), relative"] = worst_fsum
    FIGURES[f"clipped gradients vs torch ({name}), relative"] = worst_grad
    bound = 1e-6 if dtype == torch.float32 else 1e-14
    assert worst_norm < bound and worst_fsum < bound and worst_grad < 2 * bound


def test_no_gradient_at_all_is_torchs_zero():
    ref = _reference()
    for params in ([], _params([torch.randn(3)], [None])):
        want = torch.nn.utils.clip_grad_norm_(params, 1.0)
        got = ref(params, 1.0)
        assert want.shape == got.shape == () and want.dtype == got.dtype == torch.float32 and float(got) == float(want) == 0.0


def teardown_module():
    for what, value in FIGURES.items():
        print(f"grad-clip {what}: {value:.2g}")
