"""A float32 NumPy result that came back float64: the report names the line that made the first float64 value
(checker/judge/promotion.py), and a drill's report leaves the line out (it is a rung of the drill's hint ladder)."""
from __future__ import annotations

import numpy as np

from checker.app import drilling
from checker.judge import promotion
from checker.judge.results import Status
from tests.conftest import CORPUS, run_check


def _scaled(x):
    d = x.shape[-1]
    y = x * 2
    s = y / np.sqrt(d)
    return s.sum(-1)


def test_the_line_that_made_the_first_float64_value_is_found():
    x = np.ones((3, 4), dtype=np.float32)
    assert promotion.widened({"x": x}, _scaled(x))
    n, code = promotion.first_float64_line(_scaled, {"x": x})
    assert code == "s = y / np.sqrt(d)" and n == _scaled.__code__.co_firstlineno + 3
    assert not promotion.widened({"x": x}, (x * 2.0).sum())  # a Python float keeps float32


def test_a_check_names_the_line_and_a_drill_report_does_not():
    result = run_check(CORPUS / "numpy_mha" / "wrong_np_sqrt_scale.py", "numpy-mha", seed=1, name=False, draws=0)
    failing = [c for c in result.cases if c.status is Status.FAIL]
    dtype = [p for c in failing for p in c.problems if p.kind == "dtype"]
    assert dtype and all("line 26" in p.where and "np.sqrt(head_dim)" in p.where for p in dtype)
    shown = drilling.shown(result, written=object())
    assert all(not p.where for c in shown.cases for p in c.problems)


def test_a_right_file_that_works_in_float64_inside_passes(tmp_path):
    right = tmp_path / "linear_regression.py"
    right.write_text((CORPUS / "linear_regression" / "right_pinv_augmented_float64.py").read_text())
    result = run_check(right, "linear-regression", seed=1, name=False, draws=2)
    assert result.passed
