"""The alignment family's specs and the engine capabilities they brought: cases that expect an error,
masks whose padding holds garbage, aggregation reports, the family's tolerance."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
import torch

from checker import spec as spec_api
from checker.compare import compare_outcome

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


def test_a_stub_still_reads_as_not_implemented():
    def stub(x, kind="k3"):
        raise NotImplementedError("write it")

    with pytest.raises(NotImplementedError):
        _run(stub, _case())


def test_cases_without_raises_run_as_before():
    inputs = spec_api.Inputs(args={"x": torch.ones(3), "kind": "k1"})
    assert float(spec_api.call(FUNCTION, _lenient, inputs, torch.device("cpu")).value) == 3.0
