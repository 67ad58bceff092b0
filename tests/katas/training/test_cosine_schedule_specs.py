"""cosine-schedule's own rules: the contract's decisions on the reference, the comparison (the float rule, the
tolerance 1e-12·max_lr + 1e-9·|lr|, both values at W = T), the case families the contract lists, and the known
mistakes: each one at least 1e-5 × max_lr off the contract on some named case and failing a named case on every
seed tried, float32 arithmetic failing as a precision requirement (~1e-7 off) while a right file's reordering passes."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from checker.judge import spec as spec_api
from checker.text import catalog
from tests.namer import first_failing_named_case
from tests.spec_support import cases, fresh, reference_of, roundtrip, spec_of

KATA = "cosine-schedule"
CPU = torch.device("cpu")


def _ref():
    return reference_of(catalog.get(KATA))


def test_the_contract_on_the_reference():
    lr = _ref()
    assert lr(0, 1e-3, 10, 100) == 0.0  # from 0
    assert lr(9, 1e-3, 10, 100) == pytest.approx(1e-3 * 9 / 10, rel=1e-15)
    assert lr(10, 1e-3, 10, 100) == 1e-3  # max_lr at the end of warmup
    assert lr(100, 1e-3, 10, 100, 1e-4) == pytest.approx(1e-4, rel=1e-15)  # min_lr at T
    assert lr(55, 1e-3, 10, 100, 1e-4) == pytest.approx(1e-4 + 9e-4 * 0.5, rel=1e-15)  # half way
    assert all(lr(s, 1e-3, 10, 100, 1e-4) == 1e-4 for s in (101, 500, 10**9))  # held
    assert lr(0, 1e-3, 0, 5) == 1e-3  # no warmup
    assert lr(8, 1e-3, 8, 8, 1e-4) == 1e-3 and lr(9, 1e-3, 8, 8, 1e-4) == 1e-4  # W = T: no ZeroDivisionError
    assert all(type(lr(s, 1e-3, 4, 20)) is float for s in range(30))


def test_the_families_the_contract_lists():
    names = {c.family.name for c in cases(KATA)}
    assert {"cs336_published", "no_warmup", "warmup_equals_total", "warmup_equals_total_floor", "one_decay_step",
            "total_one", "warmup_one", "min_equals_max", "default_min_lr", "min_lr_positive", "far_past_total",
            "long_schedule", "tiny_max_lr", "positional_default_min", "random"} <= names
    by = {c.name: c for c in cases(KATA)}
    assert by["cs336_published"].inputs.show["steps"] == list(range(31))
    long = by["long_schedule"].inputs
    assert {0, 1999, 2000, 2001, 99_999, 100_000, 100_001, 250_000} <= set(long.show["steps"])
    for c in cases(KATA):  # every step 0 … T + 10 at least (CS336's 0 … 30 at T = 21), or the sampled boundaries of a long schedule
        T, steps = c.inputs.args["total_steps"], c.inputs.show["steps"]
        assert steps[:T + 10] == list(range(T + 10)) or T >= 200 and max(steps) >= 2.5 * T - 1


def _judge(case, value_at, steps=None):
    """The compare hook on a made-up learner whose value at each step is value_at(step, want)."""
    spec = spec_of(KATA)
    kata = catalog.get(KATA)
    want = roundtrip(spec.call(kata, _ref(), fresh(case.inputs), CPU))
    got = roundtrip(spec_api.Outcome(None, {k: value_at(int(k.rsplit(" ", 1)[1]), v) for k, v in want.extras.items()}))
    return spec.compare(kata, case, [want], got)


def test_the_float_rule_and_the_tolerance():
    case = next(c for c in cases(KATA) if c.name == "min_lr_positive")
    max_lr = case.inputs.args["max_lr"]
    assert _judge(case, lambda s, w: w) == []
    assert _judge(case, lambda s, w: np.float64(w)) == []
    assert _judge(case, lambda s, w: 0 if w == 0 else w) == []
    inside = lambda s, w: w + 0.9 * (1e-12 * max_lr + 1e-9 * abs(w))  # noqa: E731
    outside = lambda s, w: w + 1.5 * (1e-12 * max_lr + 1e-9 * abs(w))  # noqa: E731
    assert _judge(case, inside) == []
    assert [p.kind for p in _judge(case, outside)] == ["values"]
    for wrong in (lambda s, w: np.float32(w), lambda s, w: torch.tensor(w, dtype=torch.float64),
                  lambda s, w: np.array(w), lambda s, w: None, lambda s, w: True):
        problems = _judge(case, lambda s, w, f=wrong: f(s, w) if s == 3 else w)
        assert [p.kind for p in problems] == ["type"], problems
    f32 = _judge(case, lambda s, w: float(np.float32(w)))
    assert f32 and "float32" in f32[0].message


def test_both_values_at_warmup_equals_total():
    case = next(c for c in cases(KATA) if c.name == "warmup_equals_total_floor")
    a = case.inputs.args
    T, lo, hi = a["total_steps"], a["min_lr"], a["max_lr"]
    assert _judge(case, lambda s, w: lo if s == T else w) == []
    assert _judge(case, lambda s, w: hi if s == T else w) == []
    assert _judge(case, lambda s, w: hi + lo if s == T else w)
    assert _judge(case, lambda s, w: hi if s == T + 1 else w)  # only at that one step


def test_every_mistake_is_far_off_on_a_named_case_and_fails_one_on_every_seed():
    spec = spec_of(KATA)
    kata = catalog.get(KATA)
    named = [c for c in cases(KATA) if not c.family.name.startswith("random")]
    for m in spec.MISTAKES:
        worst = 0.0
        for c in named:
            a = c.inputs.args
            for s in c.inputs.show["steps"]:
                try:
                    got = m.fn(s, a["max_lr"], a["warmup_steps"], a["total_steps"], a.get("min_lr", 0.0))
                except ZeroDivisionError:
                    worst = math.inf
                    continue
                want = _ref()(s, a["max_lr"], a["warmup_steps"], a["total_steps"], a.get("min_lr", 0.0))
                if s == a["warmup_steps"] == a["total_steps"]:
                    continue
                worst = max(worst, abs(float(got) - want) / a["max_lr"])
        if m.key != "float32_arithmetic" and m.key != "tensor_returned":
            assert worst >= 1e-5, (m.key, m.variant, worst)
        else:
            assert worst < 1e-6, (m.key, m.variant, worst)  # a precision or type slip, not another schedule
        for seed in range(3):
            assert first_failing_named_case(kata, m.fn, seed) is not None, (m.key, m.variant, seed)
