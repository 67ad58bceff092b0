"""The decision-tree-split spec keeps the contract's promises: every edge-case family the contract lists is a named
case; the tie cases are exact ties in exact arithmetic and in every order of floating-point operations tried, won by
the lowest (feature, split); random draws keep the best gain 1e-9 above the rest and their values 1e-7 apart; None
exactly where the contract says; the comparison accepts any threshold in the closed interval [v_i, v_{i+1}] (both
ends included, compared exactly), a NumPy integer feature and a float32 threshold, and refuses a bool feature, a
list, a threshold one ulp outside and a gain off by more than float64's tolerance; a wrong split is reported with the
gain of the learner's own split; every known mistake fails a named case."""
from __future__ import annotations

import itertools
import math
import types
from fractions import Fraction

import numpy as np
import pytest

from checker.judge import spec as spec_api
from checker.judge.codec import FloatScalar, Opaque
from checker.judge.spec import Outcome
from checker.specs import decision_tree_split as spec
from checker.text import catalog
from checker.judge.worker import load_entry
from tests.namer import first_failing_named_case

KATA = types.SimpleNamespace(id="decision-tree-split", outputs=("feature", "threshold", "gain"), numpy_only=True,
                             kind="function")
TIES = ("four_way_tie_gini", "four_way_tie_entropy", "duplicated_columns", "mirrored_gini", "mirrored_entropy", "xor",
        "xor_entropy")
NONE = ("pure_node", "all_constant", "single_sample", "feature_arg_constant")


def _reference():
    kata = catalog.get("decision-tree-split")
    return load_entry(kata.reference_path, kata.entry, "test_dts_reference")


def _case(name, seed=1):
    (case,) = spec_api.build_cases(spec, seed, only=name)
    return case


def test_every_family_the_contract_lists_is_a_named_case_and_there_are_100_cases():
    names = {f.name for f in spec.FAMILIES}
    listed = {"clean_gini", "clean_entropy", "default_criterion", "four_way_tie_gini", "four_way_tie_entropy",
              "duplicated_columns", "mirrored_gini", "mirrored_entropy", "xor", "pure_node", "all_constant",
              "constant_beside_informative", "single_sample", "two_samples", "repeated_values", "unsorted",
              "negative_labels", "int32_labels", "five_classes_gini", "five_classes_entropy", "criteria_disagree_gini",
              "criteria_disagree_entropy", "feature_arg", "feature_arg_constant", "feature_arg_entropy", "float32",
              "large_values", "three_points", "unknown_criterion", "random"}
    assert listed <= names
    assert len(spec_api.build_cases(spec, 1)) >= 100


def _exact_gains(X, y, criterion):
    """Every candidate's gain in exact arithmetic (Gini in fractions; entropy as a sum of exact terms c·log2 c)."""
    classes = np.unique(y)
    n = len(y)

    def imp(part):
        counts = [int((part == c).sum()) for c in classes]
        m = sum(counts)
        if criterion == "gini":
            return 1 - sum(Fraction(c, m) ** 2 for c in counts)
        # entropy = log2 m − Σ c·log2 c / m: compared as a tuple of exact parts (m, sorted counts)
        return (m, tuple(sorted(counts)))

    found = []
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        for lo in values[:-1]:
            left = X[:, j] <= lo
            found.append(((j, float(lo)), imp(y[left]), imp(y[~left]), int(left.sum())))
    return found, n


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_tie_cases_are_exact_ties_won_by_the_lowest_feature_and_split(seed):
    ours = _reference()
    for name in TIES:
        case = _case(name, seed)
        X, y = case.inputs.args["X"], case.inputs.args["y"]
        criterion = case.inputs.args.get("criterion", "gini")
        gains = [c[3] for c in spec.candidates(X, y, criterion)]
        best = max(gains)
        tied = [c for c in spec.candidates(X, y, criterion) if c[3] == best]
        assert len(tied) >= 2, name  # a real tie, exact in float64 too
        assert len({c[0] for c in tied}) > 1 or all(b[1] > a[2] for a, b in zip(tied, tied[1:])), name  # not adjacent
        feature, threshold, gain = ours(**case.inputs.args)
        assert (feature, threshold) == (tied[0][0], (tied[0][1] + tied[0][2]) / 2) and gain == best, name
        if criterion == "gini":  # the tie holds in exact fractions
            exact, n = _exact_gains(X, y, "gini")
            children = {key: Fraction(nl, n) * il + Fraction(n - nl, n) * ir for key, il, ir, nl in exact}
            low = min(children.values())
            assert sum(v == low for v in children.values()) == len(tied), name


def test_tied_gains_are_equal_in_every_order_of_operations_tried():
    """The tied splits' weights n/8 and impurities 0, ½ and 1 bit are exact: each way of writing the impurity and
    the gain (the same way for every split, as one learner's code does) gives the very same float for every tied
    split, so no way breaks the tie by rounding."""
    formulas = (lambda p, il, ir, nl, n: p - nl / n * il - (n - nl) / n * ir,
                lambda p, il, ir, nl, n: p - (nl * il + (n - nl) * ir) / n,
                lambda p, il, ir, nl, n: p - (nl / n * il + (1 - nl / n) * ir),
                lambda p, il, ir, nl, n: p - ((n - nl) / n * ir + nl / n * il))
    for name in ("four_way_tie_gini", "four_way_tie_entropy", "mirrored_gini", "mirrored_entropy"):
        case = _case(name)
        X, y = case.inputs.args["X"], case.inputs.args["y"]
        criterion = case.inputs.args["criterion"]
        best = max(c[3] for c in spec.candidates(X, y, criterion))
        tied = [(j, lo) for j, lo, _, gain in spec.candidates(X, y, criterion) if gain == best]
        for way, formula in itertools.product(range(3), formulas):
            values = set()
            for j, lo in tied:
                left = X[:, j] <= lo
                n, nl = len(y), int(left.sum())
                imp = [_ways(part, criterion)[way] for part in (y[left], y[~left], y)]
                values.add(formula(imp[2], imp[0], imp[1], nl, n))
            assert len(values) == 1, (name, way, values)


def _ways(part, criterion):
    _, counts = np.unique(part, return_counts=True)
    p = counts / counts.sum()
    if criterion == "gini":
        return 1 - (p ** 2).sum(), 1 - (counts ** 2).sum() / counts.sum() ** 2, 1 - p @ p
    return (-(p * np.log2(p)).sum(), -(p * np.log(p)).sum() / np.log(2),
            np.log2(counts.sum()) - (counts * np.log2(counts)).sum() / counts.sum())


@pytest.mark.parametrize("seed", (1, 2))
def test_random_draws_keep_a_margin_and_spaced_values(seed):
    for case in spec_api.build_cases(spec, seed, only="random"):
        args = case.inputs.args
        assert spec.margin(args["X"], args["y"], args.get("criterion", "gini"), args.get("feature")) >= spec.MARGIN
        assert spec._spaced(args["X"])
    drawn = spec_api.build_cases(spec, seed, only="random")
    assert {c.inputs.args["X"].dtype.name for c in drawn} == {"float32", "float64"}
    assert {c.inputs.args.get("criterion") for c in drawn} == {None, "gini", "entropy"}
    assert any("feature" in c.inputs.args for c in drawn) and any(c.inputs.args["y"].min() < 0 for c in drawn)


@pytest.mark.parametrize("seed", (1, 2))
def test_none_exactly_where_the_contract_says(seed):
    ours = _reference()
    for case in spec_api.build_cases(spec, seed):
        if case.inputs.raises:
            with pytest.raises(ValueError):
                ours(**case.inputs.args)
            continue
        got = ours(**case.inputs.args)
        assert (got is None) == (case.family.name in NONE), case.name
    assert ours(**_case("xor").inputs.args) == (0, 0.5, 0.0)  # a zero gain is a split


# ---------------------------------------------------------------- the comparison


def _judge(case, value):
    ours = _reference()
    want = Outcome(ours(**case.inputs.args))
    return spec.compare(KATA, case, [want], Outcome(value))


def test_any_threshold_in_the_closed_interval_passes_and_one_ulp_outside_fails():
    case = _case("mirrored_gini")  # best split: feature 0 between 2 and 3, gain 0.09375
    for t in (2.0, 2.5, 3.0, np.float32(2.5), np.nextafter(2.0, 3.0)):
        value = (0, FloatScalar(float(t), "float32") if isinstance(t, np.float32) else float(t), 0.09375)
        assert _judge(case, value) == [], t
    for t in (np.nextafter(2.0, 0.0), np.nextafter(3.0, 4.0), 6.5):
        problems = _judge(case, (0, float(t), 0.09375))
        assert [p.item for p in problems] == ["threshold"], t


def test_the_feature_may_be_a_numpy_integer_never_a_bool_and_the_result_a_tuple():
    case = _case("clean_gini")
    feature, threshold, gain = _reference()(**case.inputs.args)
    assert _judge(case, (Opaque("numpy.int64", str(feature)), threshold, gain)) == []
    assert [p.kind for p in _judge(case, (bool(feature), threshold, gain))] == ["type"]
    assert [p.kind for p in _judge(case, [feature, threshold, gain])] == ["structure"]
    assert _judge(case, (feature, threshold, gain * (1 + 5e-8))) == []
    assert [p.item for p in _judge(case, (feature, threshold, gain * (1 + 5e-7)))] == ["gain"]


def test_none_where_a_split_is_expected_and_a_split_where_none_is_expected_are_said():
    xor = _judge(_case("xor"), None)
    assert len(xor) == 1 and "zero gains are still splits" in xor[0].message
    pure = _judge(_case("pure_node"), (0, 0.5, 0.0))
    assert len(pure) == 1 and "pure node" in pure[0].message


def test_a_wrong_split_is_reported_with_its_own_gain_and_a_tie_with_the_rule():
    case = _case("four_way_tie_gini")
    (problem,) = _judge(case, (3, 4.5, 0.125))
    assert problem.item == "feature" and "gains 0.125" in problem.message and "lowest feature" in problem.message
    case = _case("clean_entropy")
    feature, threshold, gain = _reference()(**case.inputs.args)
    (problem,) = _judge(case, (feature, threshold, gain * math.log(2)))
    assert problem.item == "gain" and "log2" in problem.message


@pytest.mark.parametrize("seed", (1, 2))
def test_every_known_mistake_fails_a_named_case(seed):
    kata = catalog.get("decision-tree-split")
    missed = [m.key for m in spec.MISTAKES if first_failing_named_case(kata, m.fn, seed) is None]
    assert not missed, missed
