"""The float-result rule of the NumPy katas (classic family): a float result may come back as a Python
float, a NumPy floating scalar or a 0-dim float array, and is compared with the tolerance of the inputs'
dtype; float arrays keep their dtype, with a hint that says where a float64 came from."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from checker.judge import codec
from checker.judge.compare import compare_item, compare_values
from checker.judge.spec import Family, Inputs, Case


def _case(x):
    return Case("c", Family("c", lambda g: None), 0, Inputs({"X": x}))


def _wire(value):
    """What a value looks like after the child's encoder and the parent's decoder."""
    buffers: list[bytes] = []
    node = codec.encode(value, buffers)
    return codec.decode(node, buffers)


SPEC = SimpleNamespace()


@pytest.mark.parametrize("got", [0.75, np.float64(0.75), np.float32(0.75), np.array(0.75), np.array(0.75, np.float32)])
def test_every_float_form_passes(got):
    case = _case(np.zeros((3, 2), np.float32))
    assert compare_item(SPEC, case, "auc", 0.75, _wire(got)) == []


def test_a_python_int_is_its_value_but_a_bool_is_not():
    case = _case(np.zeros(3))
    assert compare_item(SPEC, case, "b", 0.0, _wire(0)) == []
    assert [p.kind for p in compare_item(SPEC, case, "b", 0.0, _wire(1))] == ["values"]
    assert [p.kind for p in compare_item(SPEC, case, "b", 0.0, _wire(False))] == ["type"]


def test_float32_inputs_get_float32_tolerance_and_float64_inputs_do_not():
    near = 0.75 + 3e-6
    assert compare_item(SPEC, _case(np.zeros(3, np.float32)), "b", 0.75, _wire(np.float32(near))) == []
    problems = compare_item(SPEC, _case(np.zeros(3, np.float64)), "b", 0.75, _wire(near))
    assert [p.kind for p in problems] == ["values"]
    assert "0.750003" in problems[0].message and "0.75" in problems[0].message


def test_int_scores_compare_at_float64():
    case = Case("c", Family("c", lambda g: None), 0, Inputs({"y_score": np.arange(4)}))
    assert compare_item(SPEC, case, "auc", 0.5, _wire(0.5 + 1e-6))


@pytest.mark.parametrize("got, kind", [(np.array([0.75]), "type"), ([0.75], "type"), (None, "type"),
                                       (float("nan"), "values"), (float("inf"), "values")])
def test_not_a_float_or_not_finite_fails(got, kind):
    problems = compare_item(SPEC, _case(np.zeros(3)), "auc", 0.75, _wire(got))
    assert [p.kind for p in problems] == [kind]


def test_nan_message_names_the_overflow():
    problems = compare_item(SPEC, _case(np.zeros(3)), "loss", 1.7e7, _wire(np.float64("nan")))
    assert "overflow" in problems[0].message


def test_a_promoted_array_says_where_float64_came_from():
    expected = _wire(np.zeros(4, np.float32))
    problems = compare_values("w", expected, _wire(np.zeros(4)), 1e-4, 1e-5)
    assert [p.kind for p in problems] == ["dtype"]
    assert "np.zeros(n)" in problems[0].message and "labels" in problems[0].message


def test_a_numpy_scalar_of_another_kind_stays_opaque():
    assert isinstance(_wire(np.int64(3)), codec.Opaque)
    assert isinstance(_wire(np.float32(0.5)), codec.FloatScalar)


# ---------------------------------------------------------------- float32 or a rounding (issue 31)


def _centroids(seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(0.0, 3.0, size=(4, 3))


def test_a_float32_path_in_a_numpy_kata_is_said_in_numpy_s_words():
    e = _centroids()
    got = e.astype(np.float32).astype(np.float64)
    [problem] = compare_values("centroids", _wire(e), _wire(got), 1e-10, 1e-12)
    assert problem.kind == "precision" and "np.float32" in problem.message, problem.message
    assert "torch" not in problem.message and ".float()" not in problem.message, problem.message


@pytest.mark.parametrize("decimals", [4, 6])
def test_values_rounded_to_decimals_are_not_said_to_be_float32(decimals):
    e = _centroids(1) * 30  # np.round(x, 4) of values near 100 is below float32's level of the largest
    [problem] = compare_values("centroids", _wire(e), _wire(np.round(e, decimals)), 1e-7, 1e-9)
    assert problem.kind == "values" and "float32" not in problem.message, problem.message
