"""grad-clip's own rules: the contract on the reference (the eps, the clamp, the pre-clip norm, None grads, generators,
a single tensor, no gradient at all), the comparison (a gradient's atol scaled by its own size, the norm relative only,
a None grad staying None, parameters' values and the list passed untouched, any 0-dim float zero with no gradient,
either answer at norm = max_norm) and the device rule (a 0-dim CPU accumulator passes on the simulated GPU; a norm
left on the CPU fails)."""
from __future__ import annotations

import math
from dataclasses import replace

import torch

from checker.judge import spec as spec_api
from checker.judge.devices import DeviceProblem
from checker.text import catalog
from tests.spec_support import cases, fresh, reference_of, roundtrip, spec_of

KATA = "grad-clip"
CPU = torch.device("cpu")


def _ref():
    return reference_of(catalog.get(KATA))


def _case(name):
    return next(c for c in cases(KATA) if c.name == name)


def _judge(name, fn):
    """The compare hook on `fn` run through the spec's call hook, against the reference."""
    spec, kata, case = spec_of(KATA), catalog.get(KATA), _case(name)
    run = lambda f: roundtrip(spec.call(kata, f, fresh(case.inputs), CPU, track_device=case.family.track_device))  # noqa: E731
    return spec.compare(kata, case, [run(_ref())], run(fn))


def _written(**switches):
    return spec_of(KATA)._variant(**switches)


def test_the_contract_on_the_reference():
    clip = _ref()
    p = torch.nn.Parameter(torch.zeros(3, dtype=torch.float64))
    p.grad = torch.tensor([3.0, 4.0, 0.0], dtype=torch.float64)
    total = clip((q for q in [p]), 1.0)  # a generator
    assert float(total) == 5.0 and total.dtype == torch.float64 and total.shape == ()
    assert torch.allclose(p.grad, torch.tensor([3.0, 4.0, 0.0], dtype=torch.float64) / (5.0 + 1e-6), rtol=1e-15)
    assert torch.equal(p.detach(), torch.zeros(3, dtype=torch.float64))  # only .grad changes
    q = torch.nn.Parameter(torch.zeros(2))
    q.grad = torch.tensor([1e-6, 0.0])
    clip(q, 1e-6)  # a single tensor; the eps halves the coefficient here
    assert math.isclose(float(q.grad[0]), 1e-6 * 1e-6 / 2e-6, rel_tol=1e-6)
    r = torch.nn.Parameter(torch.zeros(2))
    assert float(clip([r], 1.0)) == 0.0 and r.grad is None  # no gradient: 0, and None stays None
    s = torch.nn.Parameter(torch.zeros(2))
    s.grad = torch.tensor([-3.0, 2.0])
    assert float(clip([r, s], 10.0, math.inf)) == 3.0 and torch.equal(s.grad, torch.tensor([-3.0, 2.0]))


def test_the_families_the_contract_lists():
    names = {c.family.name for c in cases(KATA)}
    assert {"below_max_norm", "above_max_norm", "one_parameter", "single_tensor", "generator", "none_grad_among_others",
            "all_grads_none", "empty_list", "norm_inf", "norm_inf_negative_max", "norm_inf_below_max_norm",
            "tiny_gradients_eps", "tiny_gradients_eps_float32", "zero_gradients", "max_norm_zero", "norm_type_int_two",
            "max_norm_int", "norm_equals_max_norm", "float64_mixed_shapes_none", "large_gradients", "random",
            "device"} <= names
    assert len(cases(KATA)) >= 100
    boundary = _case("norm_equals_max_norm_float64").inputs
    grads = [t for k, t in boundary.args.items() if k.endswith(".grad")]
    assert math.sqrt(sum(float((t.double() ** 2).sum()) for t in grads)) == boundary.args["max_norm"] == 100.0


def test_right_writings_pass_and_the_eps_is_required():
    assert _judge("tiny_gradients_eps", _ref()) == []
    assert _judge("tiny_gradients_eps_float32", _ref()) == []
    assert _judge("tiny_gradients_eps", _written(eps=0.0))  # no eps: the coefficient ~0.7 instead of ~0.4
    assert _judge("tiny_gradients_eps_float32", _written(eps=0.0))
    for boundary in ("norm_equals_max_norm", "norm_equals_max_norm_float64"):  # at norm = max_norm both answers pass
        assert _judge(boundary, _written(eps=0.0, branch=True)) == []
        assert _judge(boundary, _ref()) == []


def test_what_the_comparison_rejects():
    kinds = lambda name, fn: [p.kind for p in _judge(name, fn)]  # noqa: E731
    assert "inplace" in kinds("above_max_norm", _written(clip_values=True))
    assert kinds("none_grad_among_others", _written(none_grads="zero_fill")) == ["values"]
    assert kinds("below_max_norm", _written(returns="float")) == ["type"]
    assert kinds("all_grads_none", _written(empty="none")) == ["values"]
    assert _judge("all_grads_none", lambda ps, m, norm_type=2.0: torch.zeros((), dtype=torch.float64)) == []
    assert kinds("all_grads_none", lambda ps, m, norm_type=2.0: torch.zeros(1)) == ["values"]

    def pops(parameters, max_norm, norm_type=2.0):
        out = _ref()(parameters, max_norm, norm_type)
        parameters.pop()
        return out
    assert kinds("above_max_norm", pops) == ["inplace"]


def test_the_device_rule():
    spec, kata, case = spec_of(KATA), catalog.get(KATA), _case("device")

    def accumulator(parameters, max_norm, norm_type=2.0):  # a 0-dim CPU accumulator: fine on a real GPU
        grads = [p.grad for p in parameters if p.grad is not None]
        total = torch.tensor(0.0)
        for g in grads:
            total = total + g.pow(2).sum()
        total = total.sqrt()
        for g in grads:
            g.mul_(torch.clamp(max_norm / (total + 1e-6), max=1.0))
        return total

    def on_cpu(parameters, max_norm, norm_type=2.0):  # the norm brought back to the CPU
        return _ref()(parameters, max_norm, norm_type).cpu()

    want = roundtrip(spec.call(kata, _ref(), fresh(case.inputs), CPU, track_device=True))
    got = roundtrip(spec.call(kata, accumulator, fresh(case.inputs), CPU, track_device=True))
    assert spec.compare(kata, case, [want], got) == []
    got = roundtrip(spec.call(kata, on_cpu, fresh(case.inputs), CPU, track_device=True))
    assert [p.kind for p in spec.compare(kata, case, [want], got)] == ["device"]
