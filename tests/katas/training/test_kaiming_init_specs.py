"""kaiming-init's own rules (checker/specs/kaiming_init.py): the Kolmogorov–Smirnov p-value, the false failures of
right answers over many seeds, the power against each scale mistake, the report's words (expected and sample
statistics side by side), the call itself (in place, the same object, a leaf, the global RNG), and the namer's
`matches` hook for random fills.

Measured (torch 2.13 CPU; /work of issue 35, the loop of `test_right_answers_fail_rarely` at 200 seeds): four right
algorithms (normal_ / uniform_ in place, torch.randn / torch.rand copied in, an inverse CDF with erfinv, Box–Muller),
each on the 65 536-value leaky_relu a = 0.5 case, normal and uniform: 0 of 4 800 tests (KS, mean, variance) at
p < 1e-6, min p 1.9e-05, the p-values uniform (KS p 0.057). Power, seeds 1–3, every named drawing case: each of the
twelve scale and location mistakes fails every case where its std differs from the contract's by more than 2 %
(fans swapped 93 of 93, mode ignored 36/36, receptive field ignored 27/27, leaky gain ignoring a 21/21, a not
squared 21/21, a applied to relu 3/3, relu gain 2 48/48 and 78/78 with the leaky variant, tanh gain 1 12/12, std
without the root 96/96, variance passed as std 102/102, uniform bound = std 42/42) and uniform from 0 (the same
second moment, a mean of √3·std/2) every uniform case.
"""
from __future__ import annotations

import importlib
import math

import pytest
import torch

from checker.judge import mistakes
from checker.judge import spec as spec_api
from checker.judge.codec import TensorValue
from checker.judge.spec import Outcome
from checker.judge.worker import load_entry
from checker.specs import _stats as stats
from checker.text import catalog

KATA = catalog.get("kaiming-init")
SPEC = importlib.import_module(KATA.spec_module)
CPU = torch.device("cpu")
SCALE = ("fans_swapped", "mode_ignored", "receptive_field_ignored", "leaky_gain_ignores_a", "a_not_squared",
         "a_applied_to_relu", "relu_gain_2", "tanh_gain_1", "std_without_root", "variance_as_std", "uniform_bound_std")


@pytest.fixture(autouse=True)
def _one_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _reference():
    return load_entry(KATA.reference_path, KATA.entry, "test_kaiming_init_reference")


# ---------------------------------------------------------------- the statistics


def test_kolmogorov_survival_function_at_known_points():
    assert SPEC.kolmogorov_sf(1.3581) == pytest.approx(0.05, abs=2e-5)  # the 5 % critical value
    assert SPEC.kolmogorov_sf(1.6276) == pytest.approx(0.01, abs=2e-5)
    assert SPEC.kolmogorov_sf(0.1) == 1.0 and SPEC.kolmogorov_sf(10.0) < 1e-80


def test_ks_p_agrees_with_scipy():
    scipy_stats = pytest.importorskip("scipy.stats")
    g = torch.Generator().manual_seed(3)
    for n, scale in ((3456, 1.0), (8192, 1.0), (3456, 1.06), (8192, 1.03)):
        x = torch.randn(n, generator=g, dtype=torch.float64) * scale
        fit = SPEC.Fit(x, "normal", 1.0)
        theirs = scipy_stats.kstest(x.numpy(), "norm", method="asymp")
        assert fit.D == pytest.approx(theirs.statistic, rel=1e-9)
        assert fit.ks == pytest.approx(theirs.pvalue, rel=0.05, abs=1e-12)


def _algorithms():
    def in_place(w, std, dist, g):
        b = math.sqrt(3) * std
        return w.normal_(0, std, generator=g) if dist == "normal" else w.uniform_(-b, b, generator=g)

    def copied(w, std, dist, g):
        x = torch.randn(w.shape, generator=g) if dist == "normal" else (2 * torch.rand(w.shape, generator=g) - 1) * 3 ** 0.5
        return w.copy_(x * std)

    def erfinv(w, std, dist, g):
        u = torch.rand(w.shape, generator=g, dtype=torch.float64)
        x = (2 ** 0.5 * torch.erfinv((2 * u - 1).clamp(-1 + 1e-12, 1 - 1e-12)) if dist == "normal" else
             (2 * u - 1) * 3 ** 0.5)
        return w.copy_(x * std)

    def box_muller(w, std, dist, g):
        u1, u2 = (torch.rand(w.numel(), generator=g, dtype=torch.float64) for _ in range(2))
        z = torch.sqrt(-2 * torch.log1p(-u1)) * torch.cos(2 * math.pi * u2) if dist == "normal" else (2 * u1 - 1) * 3 ** 0.5
        return w.copy_((z * std).view(w.shape))

    return (in_place, copied, erfinv, box_muller)


def test_right_answers_fail_rarely():
    """Four right algorithms on the 65 536-value case, 12 seeds each (200 in the figures of the docstring)."""
    shape = (256, 256)
    std = SPEC.contract_std(shape, 0.5, "fan_in", "leaky_relu")[0]
    ps = []
    for fn in _algorithms():
        for seed in range(12):
            for dist in ("normal", "uniform"):
                w = fn(torch.empty(shape), std, dist, torch.Generator().manual_seed(seed))
                fit = SPEC.Fit(w, dist, std)
                ps += [fit.ks, fit.mean_p, fit.var_p]
    assert min(ps) >= stats.ALPHA
    assert 0.35 < sum(p < 0.5 for p in ps) / len(ps) < 0.65  # p-values spread over (0, 1), not piled at 1


def test_every_scale_mistake_fails_every_named_case_where_its_std_differs():
    cases = [c for c in spec_api.build_cases(SPEC, 1) if c.inputs.show[SPEC.KIND] == SPEC.STAT
             and not c.family.name.startswith("random")]
    ref = _reference()
    missed, differing = [], {}
    for case in cases:
        expected = mistakes.roundtrip(SPEC.call(KATA, ref, case.inputs, CPU))
        for m in SPEC.MISTAKES:
            if m.key not in SCALE:
                continue
            got = mistakes.roundtrip(SPEC.call(KATA, m.fn, case.inputs, CPU, track_device=case.family.track_device))
            ratio = float(got.extras["weight"].data.double().pow(2).mean().sqrt()) / case.inputs.show["std"]
            if abs(ratio - 1) > 0.03:
                differing[m.key] = differing.get(m.key, 0) + 1
                if not SPEC.compare(KATA, case, [expected], got):
                    missed.append((m.key, case.name, round(ratio, 3)))
    assert not missed
    assert set(differing) == set(SCALE)  # each mistake is seen by some named case


def test_uniform_from_zero_fails_every_uniform_case():
    ref, variant = _reference(), next(m.fn for m in SPEC.MISTAKES if m.key == "uniform_from_zero")
    uniform = [c for c in spec_api.build_cases(SPEC, 2) if c.inputs.show[SPEC.KIND] == SPEC.STAT
               and c.inputs.show["distribution"] == "uniform" and not c.family.name.startswith("random")]
    assert len(uniform) >= 8
    for case in uniform:
        expected = mistakes.roundtrip(SPEC.call(KATA, ref, case.inputs, CPU))
        got = mistakes.roundtrip(SPEC.call(KATA, variant, case.inputs, CPU, track_device=case.family.track_device))
        assert SPEC.compare(KATA, case, [expected], got), case.name


# ---------------------------------------------------------------- the report


def _case(name, seed=1):
    return next(c for c in spec_api.build_cases(SPEC, seed) if c.name == name)


def _judged(fn, name):
    case = _case(name)
    expected = mistakes.roundtrip(SPEC.call(KATA, _reference(), case.inputs, CPU))
    got = mistakes.roundtrip(SPEC.call(KATA, fn, case.inputs, CPU, track_device=case.family.track_device))
    return SPEC.compare(KATA, case, [expected], got)


def test_a_wrong_scale_is_reported_with_the_expected_and_the_sample_statistics():
    variant = next(m.fn for m in SPEC.MISTAKES if m.key == "a_not_squared")
    problems = _judged(variant, "leaky_a_0_5_normal")
    assert len(problems) == 1 and problems[0].kind == "rule"
    words = problems[0].message
    std = SPEC.contract_std((256, 256), 0.5, "fan_in", "leaky_relu")[0]
    assert f"expected std {std:.4g}, sample std " in words and "KS p = " in words and "variance test p = " in words
    assert "N(0, std²)" in words and "√256" in words


@pytest.mark.parametrize("key,words", [
    ("returns_none", "returned None"),
    ("not_in_place", "left weight as it was"),
    ("one_row_repeated", "holds the same values"),
])
def test_the_call_itself_is_judged_before_the_values(key, words):
    variant = next(m.fn for m in SPEC.MISTAKES if m.key == key)
    problems = _judged(variant, "defaults")
    assert problems and words in problems[0].message


def test_a_fill_without_no_grad_raises_on_the_parameter_and_another_object_returned_is_named():
    no_grad = next(m.fn for m in SPEC.MISTAKES if m.key == "no_no_grad")
    with pytest.raises(RuntimeError, match="leaf Variable"):
        SPEC.call(KATA, no_grad, _case("requires_grad_parameter").inputs, CPU)

    def clone_back(weight, **kw):
        return _reference()(weight, **kw).clone()

    problems = _judged(clone_back, "linear_fan_in_normal")
    assert problems and "returned another object" in problems[0].message


def test_a_leaf_lost_is_reported():
    def detached(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
        weight.requires_grad_(False)
        return _reference()(weight, a, mode, nonlinearity, distribution, generator)

    problems = _judged(detached, "requires_grad_parameter")
    assert problems and "no longer a leaf" in problems[0].message


# ---------------------------------------------------------------- the contract's decisions


def test_the_reference_fills_in_place_returns_the_object_and_leaves_the_global_rng():
    ref = _reference()
    w = torch.zeros(32, 16, 3, 3)
    before, ptr = torch.get_rng_state(), w.data_ptr()
    assert ref(w, generator=torch.Generator().manual_seed(1)) is w and w.data_ptr() == ptr and bool(w.any())
    assert torch.equal(before, torch.get_rng_state())


@pytest.mark.parametrize("shape,settings", [((16,), {}), ((), {}), ((4, 4), {"mode": "fan_avg"}),
                                            ((4, 4), {"nonlinearity": "swish"}),
                                            ((4, 4), {"distribution": "truncated_normal"})])
def test_the_reference_raises_for_what_the_contract_rejects(shape, settings):
    with pytest.raises(ValueError):
        _reference()(torch.zeros(shape), **settings)


def test_every_raising_case_accepts_any_exception():
    case = _case("unknown_mode_raises")

    def assertion(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
        assert mode in ("fan_in", "fan_out")

    def key_error(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
        return {"fan_in": 1, "fan_out": 2}[mode]

    expected = SPEC.call(KATA, _reference(), case.inputs, CPU)
    for fn in (assertion, key_error):
        assert SPEC.compare(KATA, case, [expected], SPEC.call(KATA, fn, case.inputs, CPU)) == []


def test_cases_hold_enough_values_and_every_family_is_named():
    cases = spec_api.build_cases(SPEC, 1)
    assert len(cases) >= 100
    drawn = [c for c in cases if c.inputs.show[SPEC.KIND] == SPEC.STAT]
    sizes = [c.inputs.args["weight"].numel() for c in drawn]
    assert min(sizes) >= 3456 and max(sizes) <= 65536
    assert set(KATA.text().families) == {f.name for f in SPEC.FAMILIES}


# ---------------------------------------------------------------- the namer's hook


def _tv(t: torch.Tensor) -> TensorValue:
    return TensorValue(t, str(t.dtype).removeprefix("torch."), tuple(t.shape), "cpu")


def _fill_outcome(w: torch.Tensor) -> Outcome:
    return Outcome(None, {"weight": _tv(w), SPEC.RETURNED: True, SPEC.STORAGE: True})


def test_matches_tells_one_law_from_another():
    case = _case("leaky_a_0_5_normal")
    g = torch.Generator().manual_seed(4)
    a, b = torch.randn(256, 256, generator=g), torch.randn(256, 256, generator=g)
    assert SPEC.matches(KATA, case, None, _fill_outcome(a), _fill_outcome(b))
    assert not SPEC.matches(KATA, case, None, _fill_outcome(a), _fill_outcome(b * 1.05))
    assert not SPEC.matches(KATA, case, None, _fill_outcome(a), _fill_outcome(b + 0.05))
    rows_a, rows_b = a[:1].expand(256, 256).clone(), b[:1].expand(256, 256).clone()
    assert SPEC.matches(KATA, case, None, _fill_outcome(rows_a), _fill_outcome(rows_b))
    assert not SPEC.matches(KATA, case, None, _fill_outcome(rows_a), _fill_outcome(b))
    returned_none = Outcome(None, {"weight": _tv(b), SPEC.RETURNED: False, SPEC.STORAGE: True})
    assert not SPEC.matches(KATA, case, None, _fill_outcome(a), returned_none)


def test_matches_reads_the_reproducibility_cases_by_which_calls_agree():
    case = _case("different_seeds_differ")
    x, y = torch.randn(4, 4), torch.randn(4, 4)
    same = Outcome(None, {"weight": _tv(x), "second call": _tv(x.clone()), "third call": _tv(x.clone())})
    fresh = Outcome(None, {"weight": _tv(x), "second call": _tv(y), "third call": _tv(y + 1)})
    assert SPEC.matches(KATA, case, None, same, same) and not SPEC.matches(KATA, case, None, same, fresh)
