"""int8-quant's comparison rule (checker/specs/_rounding.py, the spec's compare and matches hooks), its families,
its report and its bans: each test is built to fail if the rule were looser or stricter than the contract.
"""
from __future__ import annotations

import ast
import copy

import pytest
import torch

from checker.text import catalog
from checker.specs import _rounding as rounding
from checker.judge import static
from checker.judge import spec as spec_api
from checker.judge.mistakes import roundtrip
from checker.judge.spec import Outcome
from tests.spec_support import family, one_thread, reference_of, spec_of  # noqa: F401 — one_thread is autouse

KATA = catalog.get("int8-quant")
SPEC = spec_of("int8-quant")


def _reference(case):
    args = copy.deepcopy(case.inputs.args)
    return reference_of(KATA)(**args)


def _judge(case, got, want=None):
    want = _reference(case) if want is None else want
    return SPEC.compare(KATA, case, [roundtrip(Outcome(want))], roundtrip(Outcome(tuple(got))))


def _one(name, seed=1):
    return family("int8-quant", name, seed)[0]


# ---------------------------------------------------------------- the helper


def test_near_tie_is_relative_and_only_at_half_integers():
    v = torch.tensor([2.5, 2.5 + 3e-5, 100.5 + 9e-4, 100.5 + 2e-3, 3.0, -3.5, float("nan"), float("inf")], dtype=torch.float64)
    assert rounding.near_tie(v).tolist() == [True, False, True, False, False, True, False, False]
    assert rounding.near_tie(torch.tensor([3.0, 3.0 + 1e-6, 3.25]), also_integers=True).tolist() == [True, True, False]


def test_clamped_within_keeps_the_bounds():
    e = torch.tensor([5, 127, -127, 0])
    shift = torch.tensor([0, -1, 1, 0])
    tie = torch.tensor([False, False, False, True])
    # at a bound what lay beyond it is unknown: 127 may stay after a -1 shift, -127 after a +1 one
    assert rounding.clamped_within(e, shift, torch.tensor([5, 127, -126, 1]), tie, -127, 127).all()
    assert rounding.clamped_within(e, shift, torch.tensor([5, 126, -126, -1]), tie, -127, 127).all()
    assert not rounding.clamped_within(e, shift, torch.tensor([6, 125, -125, 2]), tie, -127, 127).any()


# ---------------------------------------------------------------- the rule, case by case


def test_the_reference_passes_every_case_on_three_seeds():
    for seed in (1, 2, 3):
        for case in spec_api.build_cases(SPEC, seed):
            assert not _judge(case, _reference(case)), case.name


def test_enough_cases_and_every_contract_family():
    names = {f.name for f in SPEC.FAMILIES}
    assert len(spec_api.case_names(SPEC)) >= 100
    for stem in ("per_tensor", "per_channel_dim0", "per_channel_dim_minus1", "per_channel_dim1_3d", "per_channel_dim_minus2",
                 "channel_scales", "all_positive", "all_negative", "all_zero_tensor", "all_zero_channel", "ties",
                 "outlier", "tiny_values", "one_dim"):
        assert {f"{stem}_symmetric", f"{stem}_asymmetric"} <= names, stem
    assert {"float64_per_tensor", "float64_per_channel", "defaults", "positional", "device"} <= names


@pytest.mark.parametrize("name", ["ties_symmetric", "ties_asymmetric"])
def test_tie_cases_hold_exact_ties(name):
    case = _one(name)
    q, scale, zp = _reference(case)
    v = (case.inputs.args["x"].double() / scale.double()).flatten()
    for tie in (2.5, -3.5, 0.5, 100.5):
        assert (v == tie).any(), (name, tie)
    if name == "ties_asymmetric":
        lo = min(float(case.inputs.args["x"].min()), 0.0)
        assert lo / float(scale) == -100.5  # a zero_point tie too


def _half_up(x, dim=None, symmetric=True):
    """Rounds half up by a reciprocal multiply, zero_point included: a right answer that differs at ties."""
    dims = tuple(range(x.dim())) if dim is None else tuple(d for d in range(x.dim()) if d != dim % x.dim())
    if symmetric:
        s = x.abs().amax(dims, keepdim=True) / 127
        s = torch.where(s == 0, torch.ones_like(s), s)
        z = torch.zeros_like(s, dtype=torch.int64)
        q = torch.floor(x * (1 / s) + 0.5).clamp(-127, 127)
    else:
        lo, hi = x.amin(dims, keepdim=True).clamp(max=0), x.amax(dims, keepdim=True).clamp(min=0)
        s = (hi - lo) / 255
        s = torch.where(s == 0, torch.ones_like(s), s)
        z = (-128 - torch.floor(lo * (1 / s) + 0.5)).clamp(-128, 127).long()
        q = (torch.floor(x * (1 / s) + 0.5) + z).clamp(-128, 127)
    shape = () if dim is None else (-1,)
    return q.to(torch.int8), s.reshape(shape), z.reshape(shape)


def _half_away(x, dim=None, symmetric=True):
    q, s, z = _reference_fn()(x, dim, symmetric)
    dims = tuple(range(x.dim())) if dim is None else tuple(d for d in range(x.dim()) if d != dim % x.dim())
    view = s.reshape([1] * x.dim() if dim is None else [x.shape[d] if d == dim % x.dim() else 1 for d in range(x.dim())])
    away = lambda v: torch.sign(v) * torch.floor(v.abs() + 0.5)  # noqa: E731
    if symmetric:
        return away(x / view).clamp(-127, 127).to(torch.int8), s, z
    lo = x.amin(dims, keepdim=True).clamp(max=0)
    z = (-128 - away(lo / view)).clamp(-128, 127).long()
    q = (away(x / view) + z).clamp(-128, 127).to(torch.int8)
    return q, s, z.reshape(s.shape)


def _reference_fn():
    return reference_of(KATA)


@pytest.mark.parametrize("fn", [_half_up, _half_away], ids=["half_up_reciprocal", "half_away"])
def test_other_roundings_pass_at_ties_and_do_differ_there(fn):
    differ = 0
    for name in ("ties_symmetric", "ties_asymmetric", "ties_per_channel", "symmetric_range_asymmetric"):
        case = _one(name)
        got = fn(**copy.deepcopy(case.inputs.args))
        assert not _judge(case, got), name
        differ += int((got[0] != _reference(case)[0]).sum())
    assert differ >= 4  # the tie rule is what lets them pass


def test_off_by_one_away_from_a_tie_fails_and_at_a_tie_passes():
    case = _one("ties_symmetric")
    q, s, z = _reference(case)
    v = case.inputs.args["x"].double() / s.double()
    at_tie = (v == 2.5).nonzero()[0]
    off_tie = ((v - v.round()).abs() < 0.2).nonzero()[0]
    moved = q.clone()
    moved[tuple(at_tie)] += 1
    assert not _judge(case, (moved, s, z))
    moved[tuple(at_tie)] += 1  # two steps at a tie: wrong
    assert _judge(case, (moved, s, z))
    moved = q.clone()
    moved[tuple(off_tie)] += 1
    assert [p.item for p in _judge(case, (moved, s, z))] == ["q"]


def test_a_zero_point_tie_moves_q_with_it():
    case = _one("ties_asymmetric")
    q, s, z = _reference(case)
    inside = (q > -128) & (q < 126)
    assert not _judge(case, (torch.where(inside, q + 1, q).to(torch.int8), s, z + 1))  # zp and q moved together: right
    assert [p.item for p in _judge(case, (q, s, z + 1))] == ["q"]  # zp moved, q left behind: wrong
    other = _one("per_tensor_asymmetric")
    q, s, z = _reference(other)
    lo = min(float(other.inputs.args["x"].min()), 0.0)
    assert not rounding.near_tie(torch.tensor(lo / float(s)))
    assert "zero_point" in [p.item for p in _judge(other, (q, s, z + 1))]  # no tie: a wrong zero point


@pytest.mark.parametrize("name", ["all_zero_tensor_symmetric", "all_zero_tensor_asymmetric", "all_zero_channel_symmetric",
                                  "all_zero_channel_asymmetric"])
def test_an_all_zero_slice_takes_any_positive_finite_scale(name):
    case = _one(name)
    q, s, z = _reference(case)
    x = case.inputs.args["x"]
    dim = case.inputs.args["dim"]
    zero = (x == 0).all() if dim is None else (x == 0).all(dim=[d for d in range(x.dim()) if d != dim % x.dim()])
    zero = zero.reshape(s.shape)
    for value in (1.0, torch.finfo(torch.float32).eps, 1e-7, 3.5):
        assert not _judge(case, (q, torch.where(zero, torch.tensor(value), s), z)), value
    for value in (float("nan"), 0.0, float("inf"), -1.0):
        problems = _judge(case, (q, torch.where(zero, torch.tensor(value), s), z))
        assert [p.item for p in problems] == ["scale"], value
        assert "all zeros" in problems[0].message


@pytest.mark.parametrize("dtype,ok,bad", [(torch.float32, 0.9e-5, 2e-5), (torch.float64, 0.9e-7, 2e-7)])
def test_scale_rtol(dtype, ok, bad):
    case = next(c for c in spec_api.build_cases(SPEC, 1) if c.inputs.args["x"].dtype == dtype)
    q, s, z = _reference(case)
    assert not _judge(case, (q, (s.double() * (1 + ok)).to(dtype), z))
    assert "scale" in [p.item for p in _judge(case, (q, (s.double() * (1 + bad)).to(dtype), z))]


def test_dtypes_and_shapes_are_said_in_the_learners_terms():
    case = _one("per_channel_dim0_asymmetric")
    q, s, z = _reference(case)
    said = [p.message for p in _judge(case, (q.int(), s, z))]
    assert said and "int8" in said[0] and ".to(torch.int8)" in said[0]
    said = [p.message for p in _judge(case, (q, s, z.int()))]
    assert said and "int64" in said[0]
    said = [p.message for p in _judge(case, (q, s[:, None], z))]
    assert said and "shape" in said[0]


# ---------------------------------------------------------------- the report


def _mistake(key, index=0):
    return [m for m in SPEC.MISTAKES if m.key == key][index].fn


def _q_message(name, fn):
    case = _one(name)
    problems = _judge(case, fn(**copy.deepcopy(case.inputs.args)))
    return next(p.message for p in problems if p.item == "q")


def test_a_truncated_q_is_reported_with_element_x_and_x_over_scale():
    said = _q_message("per_tensor_symmetric", _mistake("truncation"))
    lines = said.splitlines()
    assert lines[0].startswith("q differs in")
    assert lines[1].split() == ["element", "x", "x", "/", "expected", "scale", "expected", "yours"]
    assert "truncated toward zero" in lines[-1] and "rounding problem" in lines[-1]
    assert all(len(line) <= 60 for line in lines[1:-1])


def test_floor_and_range_are_told_apart():
    assert "rounded down (floor)" in _q_message("per_tensor_symmetric", _mistake("floor"))
    wrapped = _q_message("ties_per_channel", lambda x, dim, symmetric: _no_clamp(x, dim, symmetric))
    assert "wrapped around" in wrapped and "range problem" in wrapped
    outside = _q_message("per_tensor_symmetric", _mistake("absmax_over_128"))
    assert "outside [-127, 127]" in outside or "own scale" in outside


def _no_clamp(x, dim, symmetric):
    q, s, z = reference_of(KATA)(x, dim, symmetric)
    dims = tuple(d for d in range(x.dim()) if d != dim % x.dim())
    lo = x.amin(dims, keepdim=True).clamp(max=0)
    sv = (x.amax(dims, keepdim=True).clamp(min=0) - lo) / 255
    zv = -128 - torch.round(lo / sv)
    return (torch.round(x / sv) + zv).to(torch.int8), s, z


def test_per_channel_failures_name_the_channel_and_its_scale():
    case = _one("per_channel_dim1_3d_symmetric")
    said = _q_message("per_channel_dim1_3d_symmetric", _mistake("truncation"))
    assert "channel" in said.splitlines()[0] and "of dim 1" in said.splitlines()[0] and "scale" in said.splitlines()[0]
    assert said.splitlines()[1].split()[:2] == ["element", "x"]
    problems = _judge(case, _mistake("absmax_over_255")(**copy.deepcopy(case.inputs.args)))
    scale = next(p.message for p in problems if p.item == "scale")
    assert "channels" in scale and "of dim 1" in scale and "0.498" in scale  # 127 / 255


def test_wrong_scale_with_the_right_rounding_says_q_follows_the_scale():
    said = _q_message("per_tensor_asymmetric", _mistake("scale_over_256"))
    assert "own scale" in said


# ---------------------------------------------------------------- the namer's likeness test


def test_matches_accepts_another_rounding_of_the_same_mistake():
    """A truncation written as x * (1 / scale) differs from the variant's x / scale by one where x / scale is
    an integer to a few ulps; the generic exact test would call them different functions."""
    variant = _mistake("truncation")
    hits = 0
    for case in spec_api.build_cases(SPEC, 1):
        args = copy.deepcopy(case.inputs.args)
        x, dim, symmetric = args["x"], args.get("dim"), args.get("symmetric", True)
        if not symmetric:
            continue
        q, s, z = variant(x, dim, symmetric)
        view = s.reshape([1] * x.dim() if dim is None else [-1 if d == dim % x.dim() else 1 for d in range(x.dim())])
        other = torch.trunc(x * (1 / view)).clamp(-127, 127).to(torch.int8)
        hits += int((other != q).sum())
        assert SPEC.matches(KATA, case, None, roundtrip(Outcome((q, s, z))), roundtrip(Outcome((other, s, z)))), case.name
    assert hits > 0  # measured: 83 elements in 57 cases over seeds 1-3 differ, where exact equality would fail
    mine = _one("per_tensor_symmetric")
    q, s, z = variant(**copy.deepcopy(mine.inputs.args))
    assert not SPEC.matches(KATA, mine, None, roundtrip(Outcome((q, s, z))), roundtrip(Outcome(_reference(mine))))


# ---------------------------------------------------------------- bans


@pytest.mark.parametrize("source", [
    "import torch\nq = torch.quantize_per_tensor(x, 0.1, 0, torch.qint8)",
    "from torch import quantize_per_channel as qpc",
    "from torch import ao",
    "import torch.ao.quantization as tq",
    "from torch.ao.quantization.observer import MinMaxObserver",
    "import torch\nobs = torch.quantization.MinMaxObserver()",
    "import torch\nf = getattr(torch, 'fake_quantize_per_tensor_affine')",
    "import torch as t\nQ = t.ao.quantization\n",
    "import bitsandbytes as bnb",
    "from bitsandbytes.functional import quantize_blockwise",
    "import torch\nr = torch.ops.aten.round(x)",
    "import torch\nq = torch._make_per_channel_quantized_tensor(x, s, z, 0)",
])
def test_the_quantisation_api_is_banned_through_aliases(source):
    assert static.banned_uses(ast.parse(source), KATA.all_banned), source


def test_round_clamp_and_aminmax_stay_allowed():
    source = "import torch\nq = torch.round(x).clamp(-127, 127)\nlo, hi = torch.aminmax(x)\ny = x.to(torch.int8)"
    assert not static.banned_uses(ast.parse(source), KATA.all_banned)


# ---------------------------------------------------------------- kata cases


def test_kata_cases_prints_the_family_sentences_literally(tmp_path):
    """`[out, in]` and `[min(x, 0), max(x, 0)]` are text, not rich markup (lora's `[in_features]` too)."""
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    env = {**os.environ, "COLUMNS": "200", "KATA_HOME": str(tmp_path), "KATA_LANG": "en", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, str(ROOT / "cli.py"), "cases", "int8-quant"], capture_output=True, text=True,
                         env=env, cwd=tmp_path, check=True).stdout
    assert "a weight [out, in] with dim=0" in out
    assert "over [min(x, 0), max(x, 0)]" in out


def _reciprocal_truncation(x, dim=None, symmetric=True):
    """Truncation written as x * (1 / scale): the variant's x / scale, one off wherever that is an integer to an ulp."""
    dims = tuple(range(x.dim())) if dim is None else tuple(d for d in range(x.dim()) if d != dim % x.dim())
    if symmetric:
        s = x.abs().amax(dims, keepdim=True) / 127
        s = torch.where(s == 0, torch.ones_like(s), s)
        z = torch.zeros_like(s, dtype=torch.int64)
        q = torch.trunc(x * (1 / s)).clamp(-127, 127)
    else:
        lo, hi = x.amin(dims, keepdim=True).clamp(max=0), x.amax(dims, keepdim=True).clamp(min=0)
        s = (hi - lo) / 255
        s = torch.where(s == 0, torch.ones_like(s), s)
        z = (-128 - torch.round(lo / s)).clamp(-128, 127).long()
        q = (torch.trunc(x * (1 / s)) + z).clamp(-128, 127)
    shape = () if dim is None else (-1,)
    return q.to(torch.int8), s.reshape(shape), z.reshape(shape)


def test_the_namer_uses_the_matches_hook(monkeypatch):
    """Through the engine's namer (checker/judge/mistakes.py): named with the hook; without it, exact equality of the
    codes tells the reciprocal truncation from the variant's, and nothing is named."""
    from tests.namer import name_in_process

    named, _ = name_in_process(KATA, _reciprocal_truncation, 1, random_draws=12)
    assert named == "truncation"
    monkeypatch.delattr(SPEC, "matches")
    named, _ = name_in_process(KATA, _reciprocal_truncation, 1, random_draws=12)
    assert named is None
