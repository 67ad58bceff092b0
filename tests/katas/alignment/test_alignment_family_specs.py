"""The alignment family's specs and the engine capabilities they brought: cases that expect an error,
masks whose padding holds garbage, aggregation reports, the family's tolerance."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
import torch

from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome

FUNCTION = SimpleNamespace(kind="function", outputs=("loss",), id="toy")


def _case(raises="ValueError", show=None):
    inputs = spec_api.Inputs(args={"x": torch.ones(3), "kind": "k4"}, raises=raises, show=show or {"kind": "k4"})
    return spec_api.Case("unknown_kind", spec_api.Family("unknown_kind", lambda g: inputs), 1, inputs)


def _strict(x, kind="k3"):
    if kind not in ("k1", "k2", "k3"):
        raise ValueError(f"unknown kind {kind!r}")
    return x.sum()


class _Custom(ValueError):
    pass


def _subclass(x, kind="k3"):
    raise _Custom("no")


def _lenient(x, kind="k3"):
    return x.sum()


def _keyerror(x, kind="k3"):
    return {"k1": x}[kind]


def _run(fn, case):
    return spec_api.call(FUNCTION, fn, case.inputs, torch.device("cpu"))


def test_an_expected_error_is_an_outcome_in_words():
    case = _case()
    assert _run(_strict, case).value == "raised ValueError"
    assert _run(_subclass, case).value == "raised ValueError"  # a subclass of the error asked for counts
    assert _run(_lenient, case).value == "returned a value"
    assert _run(_keyerror, case).value.startswith("raised KeyError: 'k4'")


def test_the_report_says_what_was_expected_and_what_the_code_did():
    case = _case()
    expected = _run(_strict, case)
    assert compare_outcome(FUNCTION, None, case, expected, _run(_strict, case)) == []
    returned = compare_outcome(FUNCTION, None, case, expected, _run(_lenient, case))
    assert [p.kind for p in returned] == ["raises"]
    assert returned[0].message == "expected ValueError for kind='k4', your code returned a value"
    other = compare_outcome(FUNCTION, None, case, expected, _run(_keyerror, case))
    assert other[0].message == "expected ValueError for kind='k4', your code raised KeyError: 'k4'"


def test_either_of_two_accepted_errors_reads_alike():
    case = _case(raises="ValueError|AssertionError")

    def asserts(x, kind="k3"):
        assert kind in ("k1", "k2", "k3"), kind
        return x.sum()

    expected = _run(_strict, case)
    assert expected.value == _run(asserts, case).value == "raised ValueError"
    assert compare_outcome(FUNCTION, None, case, expected, _run(asserts, case)) == []
    returned = compare_outcome(FUNCTION, None, case, expected, _run(_lenient, case))
    assert returned[0].message == "expected ValueError or AssertionError for kind='k4', your code returned a value"
    assert _run(_keyerror, case).value.startswith("raised KeyError")


def test_a_stub_still_reads_as_not_implemented():
    def stub(x, kind="k3"):
        raise NotImplementedError("write it")

    with pytest.raises(NotImplementedError):
        _run(stub, _case())


def test_cases_without_raises_run_as_before():
    inputs = spec_api.Inputs(args={"x": torch.ones(3), "kind": "k1"})
    assert float(spec_api.call(FUNCTION, _lenient, inputs, torch.device("cpu")).value) == 3.0


# ---------------------------------------------------------------- the family's specs

from rich.cells import cell_len  # noqa: E402

from checker.text import catalog  # noqa: E402
from checker.specs._align import aggregation_lines, leak_grid  # noqa: E402
from tests.spec_support import cases as _cases, fresh, one_thread, reference_of, roundtrip, spec_of  # noqa: E402,F401

ALIGNMENT = tuple(k.id for k in catalog.KATAS if k.topic == "alignment")
CPU = torch.device("cpu")


def _outcome(kata_id, fn, case):
    kata = catalog.get(kata_id)
    spec = spec_of(kata_id)
    try:
        return roundtrip(getattr(spec, "call", spec_api.call)(kata, fn, fresh(case.inputs), CPU,
                                                             track_device=case.family.track_device))
    except Exception:  # noqa: BLE001 — a variant that raises fails the case
        return None


def _wrong(kata_id, case, expected, got) -> bool:
    kata, spec = catalog.get(kata_id), spec_of(kata_id)
    if got is None:
        return True
    hook = getattr(spec, "compare", None)
    problems = hook(kata, case, [expected], got) if hook is not None else None
    return bool(compare_outcome(kata, spec, case, expected, got) if problems is None else problems)


def test_the_family_is_listed_under_its_own_topic():
    assert "loss-agg" in ALIGNMENT
    assert all(catalog.get(k).banned for k in ALIGNMENT)


@pytest.mark.parametrize("kata_id", ALIGNMENT)
def test_at_least_eight_mistakes(kata_id):
    """The family's other rules hold for every kata: tests/katas/test_every_spec.py."""
    assert len(spec_of(kata_id).MISTAKES) >= 8


@pytest.mark.parametrize("kata_id", ALIGNMENT)
def test_inputs_come_from_the_seed(kata_id):
    def flat(cs):
        return [{k: v.tolist() if isinstance(v, torch.Tensor) else repr(v) for k, v in c.inputs.args.items()} for c in cs]

    a, b, c = (flat(_cases(kata_id, s)) for s in (5, 5, 6))
    assert a == b and a != c


@pytest.mark.parametrize("kata_id", ALIGNMENT)
def test_every_mistake_fails_a_named_case_and_the_reference_passes_all(kata_id):
    kata = catalog.get(kata_id)
    reference = reference_of(kata)
    cs = _cases(kata_id, 3)
    expected = {c.name: _outcome(kata_id, reference, c) for c in cs}
    assert all(not _wrong(kata_id, c, expected[c.name], expected[c.name]) for c in cs)
    named = [c for c in cs if not c.family.name.startswith("random")]
    for mistake in spec_of(kata_id).MISTAKES:
        assert any(_wrong(kata_id, c, expected[c.name], _outcome(kata_id, mistake.fn, c)) for c in named), mistake.key


@pytest.mark.parametrize("kata_id", ALIGNMENT)
def test_masked_positions_hold_garbage_never_zero(kata_id):
    for case in _cases(kata_id, 2):
        for name, value in case.inputs.args.items():
            if "mask" in name and isinstance(value, torch.Tensor):
                data = [v for k, v in case.inputs.args.items() if isinstance(v, torch.Tensor) and k != name
                        and v.shape == value.shape]
                for x in data:
                    assert (x[~value.bool()] != 0).all(), (case.name, name)


def test_loss_agg_unknown_modes_raise_in_the_reference_and_the_report_says_so():
    kata = catalog.get("loss-agg")
    for case in _cases("loss-agg"):
        if case.inputs.raises is not None:
            assert _outcome("loss-agg", reference_of(kata), case).value == "raised ValueError"
    lenient = next(m.fn for m in spec_of("loss-agg").MISTAKES if m.key == "unknown_mode_accepted")
    case = next(c for c in _cases("loss-agg") if c.name == "unknown_mode")
    got = _outcome("loss-agg", lenient, case)
    problems = compare_outcome(kata, spec_of("loss-agg"), case, _outcome("loss-agg", reference_of(kata), case), got)
    assert problems[0].message == "expected ValueError for loss_agg_mode='seq-mean', your code returned a value"


def test_loss_agg_all_masked_is_zero_in_the_graph():
    kata = catalog.get("loss-agg")
    for case in _cases("loss-agg"):
        if case.family.name.endswith("all_masked") or case.family.name.endswith("all_masked_float64"):
            out = _outcome("loss-agg", reference_of(kata), case)
            assert float(out.value.data) == 0.0 and out.extras["requires_grad of loss"] is True
            assert (out.extras["grad of loss_mat"].data == 0).all()


def test_the_aggregation_table_marks_the_contract_and_yours_and_fits():
    x = torch.tensor([[1.0, 2.0, 9e5], [3.0, 9e5, 9e5], [9e5, 9e5, 9e5]])
    m = torch.tensor([[1, 1, 0], [1, 0, 0], [0, 0, 0]], dtype=torch.bool)
    row_means = (1.5 + 3.0) / 2
    table = aggregation_lines(x, m, "token-mean", None, row_means)
    lines = table.splitlines()
    assert lines[0] == "nᵢ 2 1 0 · 3 tokens · 2/3 rows non-empty · T 3"
    assert lines[1].startswith(" token-mean") and lines[1].endswith("← expected") and " 2 " in lines[1]
    assert lines[2].startswith(" seq-mean-token-mean") and lines[2].endswith("← yours")
    assert any(line.startswith(" empty rows counted") for line in lines)
    assert all(cell_len(line) <= 56 for line in lines)  # inside a panel at 60 columns


def test_the_leak_grid_marks_the_masked_positions_that_contribute():
    m = torch.tensor([[1, 1, 0], [1, 0, 0]], dtype=torch.bool)
    grad = torch.tensor([[0.5, 0.5, 0.0], [0.5, 0.0, 0.1]])
    grid = leak_grid(m, grad).splitlines()
    assert grid[0] == "masked positions that change the loss (✗), first at (1, 2):"
    assert grid[1:3] == ["   0 ■■·", "   1 ■·✗"]
    assert leak_grid(m, grad * m) is None


def test_kl_estimators_backward_includes_kl_mean():
    """The call hook differentiates (kl·probe).sum() + kl_mean: a kl_mean cut off the graph is seen."""
    kata = catalog.get("kl-estimators")
    case = next(c for c in _cases("kl-estimators") if c.name == "k1_no_mask")
    out = _outcome("kl-estimators", reference_of(kata), case)
    probe = case.inputs.probe.double()
    n = probe.numel()
    # k1 = logp - ref: d/dlogp of (k1·probe).sum() + mean(k1) = probe + 1/n
    assert torch.allclose(out.extras["grad of log_probs"].data.double(), probe + 1.0 / n, atol=1e-6)
    detached = next(m.fn for m in spec_of("kl-estimators").MISTAKES if m.key == "kl_mean_detached")
    assert _wrong("kl-estimators", case, out, _outcome("kl-estimators", detached, case))


def test_kl_estimators_masked_positions_must_be_exactly_zero():
    kata = catalog.get("kl-estimators")
    spec = spec_of("kl-estimators")
    case = next(c for c in _cases("kl-estimators") if c.name == "k3_padding_15_nats")
    want = _outcome("kl-estimators", reference_of(kata), case)
    tiny = roundtrip(spec_api.Outcome((want.value[0].data + 1e-30 * ~case.inputs.args["mask"].bool(), want.value[1].data),
                                      dict((k, v.data) for k, v in want.extras.items())))
    problems = spec.compare(kata, case, [want], tiny)
    assert problems and problems[0].item == "kl" and problems[0].message.startswith("kl is not exactly 0 at ")
    assert "■" in problems[0].message and "✗" in problems[0].message
    assert spec.compare(kata, case, [want], want) == []
