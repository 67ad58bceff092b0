"""Case families for `decision-tree-split` (NumPy): the best split of one node by Gini or entropy gain.

A split is judged by the partition it makes: the feature must be the expected one, the threshold any float in the
closed interval [v_i, v_{i+1}] of the expected split (compared exactly), the gain within float64's tolerance (it
depends only on counts). Exact ties are part of the contract (the lowest feature, then the lowest split), and each
tie case is built so that every order of floating-point operations gets it exactly: duplicated columns (identical
counts), XOR, and ties on N = 8 whose tied splits have one pure side and one balanced side (weights n/8, impurities
0, ½ and 1 bit). Random draws keep the best gain unique, at least 1e-9 above every other candidate's, and their
feature values at least 1e-7 apart. A wrong answer is reported with the gain of the learner's own split and the
counts behind the expected one.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch

from checker.judge.codec import Opaque
from checker.judge.compare import (compare_float_scalar, describe, float_of, is_float_scalar, split_outputs,
                                   words_wanted)
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.text.i18n import tr

MARGIN = 1e-9  # random draws: the best gain above every other candidate's by at least this
SPACING = 1e-7  # random draws: distinct values of a column at least this far apart
_OMIT = object()  # leave the argument out, so its default is used


# ---------------------------------------------------------------- the contract's arithmetic, for drawing and reports


def _impurity(counts: np.ndarray, criterion: str) -> float:
    n = counts.sum()
    if n == 0:
        return 0.0
    p = counts[counts > 0] / n
    return float(1.0 - (p * p).sum()) if criterion == "gini" else float(-(p * np.log2(p)).sum()) + 0.0  # never -0


def _counts(y: np.ndarray, classes: np.ndarray) -> np.ndarray:
    return (y[:, None] == classes[None, :]).sum(axis=0)


def candidates(X: np.ndarray, y: np.ndarray, criterion: str, feature: int | None = None) -> list[tuple]:
    """Every candidate split in the contract's order, (feature, v_i, v_{i+1}, gain): features in order, splits
    upwards."""
    return [(j, float(xs[i]), float(xs[i + 1]), float(gain))
            for j, xs, last, gains in _scans(X, y, criterion, feature) for i, gain in zip(last, gains)]


def _scans(X: np.ndarray, y: np.ndarray, criterion: str, feature: int | None):
    """Per searched feature: (j, its sorted values, the sorted positions i that end a split, their gains)."""
    classes, codes = np.unique(y, return_inverse=True)
    onehot = np.eye(len(classes))[codes]  # [N, K]
    n = len(y)
    parent = _impurities(onehot.sum(axis=0, keepdims=True), criterion)[0]
    for j in range(X.shape[1]) if feature is None else (feature,):
        x = X[:, j].astype(np.float64)
        order = np.argsort(x, kind="stable")
        xs = x[order]
        prefix = np.cumsum(onehot[order], axis=0)  # [N, K]
        last = np.flatnonzero(xs[1:] > xs[:-1])  # [m − 1] the last sample of each value but the largest
        n_left = last + 1.0
        gains = (parent - n_left / n * _impurities(prefix[last], criterion)
                 - (n - n_left) / n * _impurities(prefix[-1] - prefix[last], criterion))
        yield j, xs, last, gains


def _impurities(counts: np.ndarray, criterion: str) -> np.ndarray:
    """counts [..., K] of non-empty sets: the impurity of each."""
    p = counts / counts.sum(axis=-1, keepdims=True)
    if criterion == "gini":
        return 1.0 - (p * p).sum(axis=-1)
    return -(p * np.log2(np.where(p > 0, p, 1.0))).sum(axis=-1)


def margin(X: np.ndarray, y: np.ndarray, criterion: str, feature: int | None = None) -> float:
    """How far the best gain stands above every other candidate's (inf with one candidate, nan with none): every
    searched feature at once, the splits of a feature being the prefixes of its sorted samples."""
    cols = X.astype(np.float64) if feature is None else X[:, [feature]].astype(np.float64)  # [N, F]
    classes, codes = np.unique(y, return_inverse=True)
    onehot = np.eye(len(classes))[codes]  # [N, K]
    n = len(y)
    order = np.argsort(cols, axis=0, kind="stable")  # [N, F]
    xs = np.take_along_axis(cols, order, axis=0)
    prefix = np.cumsum(onehot[order], axis=0)[:-1]  # [N − 1, F, K]
    n_left = np.arange(1.0, n)[:, None]  # [N − 1, 1]
    total = onehot.sum(axis=0)  # [K]
    with np.errstate(divide="ignore", invalid="ignore"):  # the last prefix (nothing on the right) is never valid
        gains = (_impurities(total[None], criterion)[0] - n_left / n * _impurities(prefix, criterion)
                 - (n - n_left) / n * _impurities(total - prefix, criterion))  # [N − 1, F]
    gains = gains[xs[1:] > xs[:-1]]  # the valid splits only
    if gains.size < 2:
        return math.inf if gains.size else math.nan
    top = np.partition(gains, gains.size - 2)[-2:]
    return float(top[1] - top[0])


def _spaced(X: np.ndarray) -> bool:
    """Distinct values of each column at least SPACING apart."""
    steps = np.diff(np.sort(X.astype(np.float64), axis=0), axis=0)
    return bool(((steps == 0) | (steps >= SPACING)).all())


# ---------------------------------------------------------------- drawing cases


def _rng(g: torch.Generator) -> np.random.Generator:
    return np.random.default_rng(int(torch.randint(2**62, (1,), generator=g)))


def _inputs(X, y, criterion: Any = _OMIT, feature: Any = _OMIT, *, dtype=np.float64, labels=np.int64) -> Inputs:
    args = {"X": np.ascontiguousarray(X, dtype=dtype), "y": np.asarray(y).astype(labels)}
    if criterion is not _OMIT:
        args["criterion"] = criterion
    if feature is not _OMIT:
        args["feature"] = feature
    show = {"criterion": "gini" if criterion is _OMIT else criterion}
    if feature is not _OMIT:
        show["feature"] = feature
    return Inputs(args=args, show=show)


def _labelled(rng: np.random.Generator, X: np.ndarray, classes: list, informative: int, noise: float) -> np.ndarray:
    """Labels from cuts of one feature, each label flipped to a random class with probability `noise`."""
    K = len(classes)
    cuts = np.sort(rng.choice(X[:, informative], K - 1, replace=False)) if K > 1 else np.array([])
    code = np.searchsorted(cuts, X[:, informative], side="left")
    code = np.where(rng.random(len(X)) < noise, rng.integers(0, K, len(X)), code)
    code[:K] = np.arange(K)[rng.permutation(K)][:min(K, len(X))]  # every class present
    return np.asarray(classes)[code]


def _drawn(N: int, D: int, classes: list, criterion: Any = _OMIT, feature: Any = _OMIT, *, dtype=np.float64,
           labels=np.int64, informative: int | None = None, noise: float = 0.25, scale: float = 1.0,
           offset: float = 0.0):
    """Continuous features (standard normal × scale + offset, in `dtype`), labels from one of them with noise,
    redrawn until the best split stands MARGIN above the rest (for the criterion and feature the case passes)."""
    def make(g: torch.Generator) -> Inputs:
        rng = _rng(g)
        crit = "gini" if criterion is _OMIT else criterion
        for _ in range(500):
            X = (scale * rng.standard_normal((N, D)) + offset).astype(dtype)
            j = int(rng.integers(0, D)) if informative is None else informative
            y = _labelled(rng, X.astype(np.float64), classes, j, noise)
            only = None if feature is _OMIT else feature
            if _spaced(X) and margin(X, y, crit, only) >= MARGIN:
                return _inputs(X, y, criterion, feature, dtype=dtype, labels=labels)
        raise RuntimeError("no draw with a unique best split: widen the family's ranges")
    return make


def _sorted_to(pattern: str, y: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A column of values 1 … N whose sorted order shows the labels `pattern` ("A"/"B" per position) for y (coded A
    = 0, B = 1): the k-th smallest value goes to a random sample of the label the pattern puts there."""
    column = np.empty(len(y))
    pools = {label: list(rng.permutation(np.flatnonzero(y == code))) for code, label in enumerate("AB")}
    for k, label in enumerate(pattern):
        column[pools[label].pop()] = k + 1.0
    return column


def _two_labels(rng: np.random.Generator) -> tuple[int, int]:
    return [(0, 1), (1, 0), (2, 7), (-1, 3)][int(rng.integers(0, 4))]


def _four_way(criterion: str):
    """Four features, each with its best split at 4.5 (values 1 … 8): one side 4 samples of one class, the other
    2 + 2 — gains I(S) − ½·0 − ½·I(AABB) on every feature, equal in any order of operations. The lowest
    wins."""
    def make(g: torch.Generator) -> Inputs:
        rng = _rng(g)
        code = rng.permutation(np.array([0, 0, 0, 0, 0, 0, 1, 1]))  # 6 A, 2 B
        patterns = ["AAAABABA", "ABABAAAA", "AAAABBAA", "AABBAAAA"]
        order = rng.permutation(4)
        X = np.stack([_sorted_to(patterns[k], code, rng) for k in order], axis=1)
        a, b = _two_labels(rng)
        return _inputs(X, np.where(code == 0, a, b), criterion)
    return make


def _mirrored(criterion: str):
    """One feature, values 1 … 8, labels in sorted order A A | B A B B | A A (or its mirror in the middle): the
    splits at 2.5 and 6.5 each cut off 2 samples of A and leave 3 + 3 — tied, the best, not adjacent. The lower
    wins. A second feature, noise with a worse best split, sits after it."""
    def make(g: torch.Generator) -> Inputs:
        rng = _rng(g)
        code = rng.permutation(np.array([0, 0, 0, 0, 0, 1, 1, 1]))
        pattern = ["AABABBAA", "AABBABAA"][int(rng.integers(0, 2))]
        first = _sorted_to(pattern, code, rng)
        second = _sorted_to("ABABABAA", code, rng)
        X = np.stack([first, second], axis=1)
        a, b = _two_labels(rng)
        return _inputs(X, np.where(code == 0, a, b), criterion)
    return make


def _duplicated(g: torch.Generator) -> Inputs:
    """Columns 1 and 3 are the same column, the informative one: identical counts, identical gains; 1 wins."""
    rng = _rng(g)
    for _ in range(500):
        X = rng.standard_normal((20, 3))
        y = _labelled(rng, X, [0, 1, 2], 1, 0.2)
        if _spaced(X) and margin(X, y, "gini") >= MARGIN and max(candidates(X, y, "gini"), key=lambda c: c[3])[0] == 1:
            return _inputs(np.concatenate([X, X[:, 1:2]], axis=1), y)
    raise RuntimeError("no draw")


def _xor(criterion: Any):
    def make(g: torch.Generator) -> Inputs:
        """The four corners of the unit square, twice each, labels x0 XOR x1: every split gains exactly 0; feature
        0's split (threshold in [0, 1]) is returned, not None."""
        rng = _rng(g)
        X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 2, dtype=np.float64)
        order = rng.permutation(8)
        y = (X[:, 0] != X[:, 1]).astype(np.int64)
        return _inputs(X[order], y[order], criterion)
    return make


def _pure(g: torch.Generator) -> Inputs:
    rng = _rng(g)
    return _inputs(rng.standard_normal((10, 3)), np.full(10, int(rng.choice([0, 1, 4, -2]))))


def _all_constant(g: torch.Generator) -> Inputs:
    rng = _rng(g)
    X = np.tile(np.round(rng.uniform(-3, 3, (1, 3)), 2), (9, 1))
    return _inputs(X, rng.permutation(np.array([0, 0, 0, 1, 1, 1, 2, 2, 2])), "entropy")


def _constant_beside(g: torch.Generator) -> Inputs:
    """Feature 0 constant (no candidate), feature 1 informative."""
    make = _drawn(12, 1, [0, 1], informative=0, noise=0.2)
    inputs = make(g)
    X = inputs.args["X"]
    inputs.args["X"] = np.concatenate([np.full((len(X), 1), 2.5), X], axis=1)
    return inputs


def _single(g: torch.Generator) -> Inputs:
    rng = _rng(g)
    return _inputs(rng.standard_normal((1, 3)), np.array([int(rng.choice([0, 3, -1]))]))


def _two(g: torch.Generator) -> Inputs:
    """N = 2, two labels: the one split of feature 0 (the last split as well as the first) gains all of I(S); the
    second feature is constant."""
    rng = _rng(g)
    x = np.sort(np.round(rng.uniform(-2, 2, 2), 3)) + np.array([0.0, 0.5])
    X = np.stack([x[rng.permutation(2)], np.full(2, 1.0)], axis=1)
    return _inputs(X, np.array([0, 1]), "entropy")


def _repeated(g: torch.Generator) -> Inputs:
    """Values 1, 2, 3 repeated: in sorted order (stable, smaller labels first among equal values) the labels read
    0 0 0 1 | 1 1 1 | 1 1 0 … so a split between two equal values would cut off three pure 0s. Valid splits only
    separate whole values."""
    rng = _rng(g)
    groups = [(1.0, [0, 0, 0, 1]), (2.0, [1, 1, 1]), (3.0, [0, 1, 1])]
    rows = []
    for value, labels in [groups[k] for k in rng.permutation(3)]:
        rows += [(value, label) for label in labels]  # within a value, smaller labels first: one sorted order
    X = np.array([[v] for v, _ in rows])
    return _inputs(X, np.array([label for _, label in rows]))


def _unsorted(g: torch.Generator) -> Inputs:
    """Rows in descending order of both features: a scan that forgets to sort sees every split backwards."""
    inputs = _drawn(16, 2, [0, 1, 2], noise=0.15)(g)
    X, y = inputs.args["X"], inputs.args["y"]
    order = np.argsort(-X[:, 0], kind="stable")
    inputs.args["X"], inputs.args["y"] = np.ascontiguousarray(X[order]), y[order]
    return inputs


def _disagree(criterion: str):
    """Three classes on which Gini and entropy choose different splits (found by drawing, both by a margin)."""
    def make(g: torch.Generator) -> Inputs:
        rng = _rng(g)
        for _ in range(2000):
            X = np.round(rng.uniform(0, 10, (14, 2)), 2)
            y = rng.integers(0, 3, 14)
            y[:3] = [0, 1, 2]
            if not _spaced(X) or min(margin(X, y, "gini"), margin(X, y, "entropy")) < 1e-3:
                continue
            g_best = max(candidates(X, y, "gini"), key=lambda c: c[3])
            e_best = max(candidates(X, y, "entropy"), key=lambda c: c[3])
            if g_best[:2] != e_best[:2]:
                return _inputs(X, y, criterion)
        raise RuntimeError("no draw")
    return make


def _feature_arg(which: str, criterion: Any = _OMIT):
    """The feature argument: a feature that is not the best one (1 or 0), or a constant one (None expected)."""
    def make(g: torch.Generator) -> Inputs:
        rng = _rng(g)
        crit = "gini" if criterion is _OMIT else criterion
        for _ in range(500):
            X = rng.standard_normal((18, 3))
            y = _labelled(rng, X, [0, 1, 2], 2, 0.2)
            if which == "constant":
                X[:, 1] = 0.75
            best = max(candidates(X, y, crit), key=lambda c: c[3])
            chosen = {"other": 1, "zero": 0, "constant": 1}[which]
            if not _spaced(X) or margin(X, y, crit) < MARGIN or best[0] == chosen:
                continue
            if which == "constant" or margin(X, y, crit, chosen) >= MARGIN:
                return _inputs(X, y, criterion, chosen)
        raise RuntimeError("no draw")
    return make


def _three_points(g: torch.Generator) -> Inputs:
    """One column of three points whose best split is the last one (the largest value alone on the right)."""
    rng = _rng(g)
    x = np.sort(np.round(rng.uniform(-5, 5, 3), 2)) + np.array([0.0, 0.25, 0.5])
    order = rng.permutation(3)
    return _inputs(x[order][:, None], np.array([4, 4, 9])[order], "entropy")


def _large_values(dtype):
    """Values 1e6 + 0.25·k: midpoints 1e6 + 0.25·k + 0.125, exact in float32 and float64."""
    def make(g: torch.Generator) -> Inputs:
        rng = _rng(g)
        for _ in range(500):
            k = rng.permutation(40)[:16]
            X = (1e6 + 0.25 * np.stack([k, rng.permutation(40)[:16]], axis=1)).astype(dtype)
            y = _labelled(rng, X.astype(np.float64), [0, 1], 0, 0.15)
            if margin(X, y, "gini") >= MARGIN:
                return _inputs(X, y, dtype=dtype)
        raise RuntimeError("no draw")
    return make


def _unknown(g: torch.Generator) -> Inputs:
    rng = _rng(g)
    X = rng.standard_normal((8, 2))
    return Inputs(args={"X": X, "y": np.array([0, 1, 0, 1, 1, 0, 1, 0]), "criterion": "mse"}, raises="ValueError",
                  show={"criterion": "mse"})


def _random(g: torch.Generator) -> Inputs:
    rng = _rng(g)
    N, D = int(rng.integers(5, 41)), int(rng.integers(1, 5))
    K = int(rng.integers(2, min(5, N // 2) + 1))  # a handful of samples per class: a unique best split is likely
    pool = [[0, 1, 2, 3, 4], [-3, -1, 2, 5, 100], [1, 2, 3, 4, 5], [-7, 0, 100, 7, 42]][int(rng.integers(0, 4))]
    classes = sorted(rng.choice(pool, K, replace=False).tolist())
    criterion = [_OMIT, "gini", "entropy", "entropy"][int(rng.integers(0, 4))]
    feature = int(rng.integers(0, D)) if rng.random() < 1 / 3 else _OMIT
    dtype = np.float32 if rng.random() < 0.35 else np.float64
    labels = [np.int64, np.int64, np.int32][int(rng.integers(0, 3))]
    scale = float(rng.choice([0.01, 1.0, 1.0, 100.0]))
    return _drawn(N, D, classes, criterion, feature, dtype=dtype, labels=labels, scale=scale,
                  offset=float(rng.choice([0.0, 0.0, 5.0])) * scale, noise=float(rng.choice([0.1, 0.3, 0.5])))(g)


FAMILIES = (
    Family("clean_gini", _drawn(20, 3, [0, 1], "gini", noise=0.05)),
    Family("clean_entropy", _drawn(20, 3, [0, 1], "entropy", noise=0.05)),
    Family("default_criterion", _drawn(20, 3, [0, 1, 2])),
    Family("four_way_tie_gini", _four_way("gini")),
    Family("four_way_tie_entropy", _four_way("entropy")),
    Family("duplicated_columns", _duplicated),
    Family("mirrored_gini", _mirrored("gini")),
    Family("mirrored_entropy", _mirrored("entropy")),
    Family("xor", _xor(_OMIT)),
    Family("xor_entropy", _xor("entropy")),
    Family("pure_node", _pure),
    Family("all_constant", _all_constant),
    Family("constant_beside_informative", _constant_beside),
    Family("single_sample", _single),
    Family("two_samples", _two),
    Family("repeated_values", _repeated),
    Family("unsorted", _unsorted),
    Family("negative_labels", _drawn(16, 2, [-7, 0, 100], "entropy")),
    Family("int32_labels", _drawn(16, 2, [0, 1, 2], labels=np.int32)),
    Family("five_classes_gini", _drawn(30, 2, [0, 1, 2, 3, 4], "gini", noise=0.1)),
    Family("five_classes_entropy", _drawn(30, 2, [0, 1, 2, 3, 4], "entropy", noise=0.1)),
    Family("criteria_disagree_gini", _disagree("gini")),
    Family("criteria_disagree_entropy", _disagree("entropy")),
    Family("feature_arg", _feature_arg("other")),
    Family("feature_arg_zero", _feature_arg("zero")),
    Family("feature_arg_constant", _feature_arg("constant")),
    Family("feature_arg_entropy", _feature_arg("other", "entropy")),
    Family("float32", _drawn(20, 3, [0, 1, 2], "entropy", dtype=np.float32)),
    Family("large_values", _large_values(np.float64)),
    Family("large_values_float32", _large_values(np.float32)),
    Family("three_points", _three_points),
    Family("unknown_criterion", _unknown),
    Family("random", _random, draws=80),
)


# ---------------------------------------------------------------- how a result is judged


def _feature_of(value: Any) -> int | None:
    """A feature index as returned: a Python int or a NumPy integer (it travels as text); None for anything else."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, Opaque) and value.type.startswith(("numpy.int", "numpy.uint")):
        try:
            return int(value.repr)
        except ValueError:
            return None
    return None


def _float_or_int(value: Any) -> float | None:
    if is_float_scalar(value):
        return float_of(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return None


def _said(value: Any) -> str:
    """A returned tuple as its values, (feature, threshold, gain); anything else as the generic words say it."""
    if not isinstance(value, tuple) or len(value) != 3:
        return describe(value)
    feature, threshold, gain = _feature_of(value[0]), _float_or_int(value[1]), _float_or_int(value[2])
    if None in (feature, threshold, gain):
        return describe(value)
    return f"({feature}, {threshold:.8g}, {gain:.6g})"


def _why_none(case: Any) -> str:
    args = case.inputs.args
    if len(np.unique(args["y"])) < 2:
        return tr("y holds one class: a pure node is a leaf")
    if len(args["y"]) == 1:
        return tr("N = 1: no candidate split")
    return tr("no candidate split: every searched feature is constant")


def _interval(case: Any, feature: int, threshold: float) -> tuple[float, float]:
    """[v_i, v_{i+1}] of the split that `threshold` (strictly between them) makes on `feature`."""
    x = case.inputs.args["X"][:, feature].astype(np.float64)
    return float(x[x <= threshold].max()), float(x[x > threshold].min())


def _sides(case: Any, feature: int, threshold: float) -> set[int]:
    """How many samples go left under `x <= threshold` and under `x < threshold`: a threshold names the split of
    either (it lies in [v_i, v_{i+1}] exactly when the split's left size is one of them)."""
    x = case.inputs.args["X"][:, feature].astype(np.float64)
    return {int((x <= threshold).sum()), int((x < threshold).sum())}


def _gain_of(case: Any, feature: int, threshold: float) -> tuple[float, int, float, float, float] | None:
    """The contract's gain of the partition x <= threshold on `feature`: (gain, n_left, I(S), I(L), I(R)), or None
    when it leaves a side empty."""
    args = case.inputs.args
    x, y = args["X"][:, feature].astype(np.float64), np.asarray(args["y"])
    criterion = args.get("criterion", "gini")
    classes = np.unique(y)
    left = x <= threshold
    n, n_left = len(y), int(left.sum())
    if n_left in (0, n):
        return None
    parent = _impurity(_counts(y, classes), criterion)
    i_left = _impurity(_counts(y[left], classes), criterion)
    i_right = _impurity(_counts(y[~left], classes), criterion)
    return parent - n_left / n * i_left - (n - n_left) / n * i_right, n_left, parent, i_left, i_right


def compare(kata: Any, case: Any, expected: list[Outcome], got: Outcome) -> list[Problem] | None:
    """None only where None is expected; else a tuple whose feature is the expected one, whose threshold lies in the
    expected split's [v_i, v_{i+1}] and whose gain is within float64's tolerance."""
    if case.inputs.raises is not None:
        return None
    want, value = expected[0].value, got.value
    if want is None:
        if value is None:
            return []
        return [Problem("values", "", tr("returned {what}; expected None: {why}", what=_said(value),
                                         why=_why_none(case)))]
    f_want, t_want, g_want = want
    if value is None:
        return [Problem("values", "", tr("returned None; expected a split: feature {f}, threshold {t:.8g}, gain "
                                         "{gain:.6g} (zero gains are still splits: None only for a pure node or no "
                                         "candidate)", f=f_want, t=t_want, gain=g_want))]
    items, problems = split_outputs(kata, value)
    if items is None:
        return problems
    feature, threshold = _feature_of(items["feature"]), _float_or_int(items["threshold"])
    if feature is None:
        problems.append(Problem("type", "feature", tr("feature is {got}; expected an int (a Python int or a NumPy "
                                                      "integer, not a bool)", got=describe(items["feature"]))))
    if threshold is None:
        problems.append(Problem("type", "threshold", tr(
            "threshold is {got}; expected a float (a Python float, a NumPy floating scalar or a 0-dim float array)",
            got=describe(items["threshold"]))))
    gain_problems = compare_float_scalar(_GainTolerance, case, "gain", want[2], items["gain"])
    if problems or any(p.kind == "type" for p in gain_problems):
        return problems + [p for p in gain_problems if p.kind == "type"]
    lo, hi = _interval(case, f_want, t_want)
    if feature != f_want:
        problems.append(Problem("values", "feature", _wrong_split(case, feature, threshold, f_want, lo, hi, g_want)))
    elif not lo <= threshold <= hi:
        problems.append(Problem("values", "threshold", _outside(case, feature, threshold, lo, hi, g_want)))
    elif gain_problems:
        p = gain_problems[0]
        message = p.message + ("\n" + _breakdown(case, f_want, t_want) if words_wanted() else "")
        problems.append(Problem(p.kind, p.item, message))
    return problems


class _GainTolerance:
    """The gain is compared with float64's tolerance whatever X's dtype: it depends only on the labels' counts."""

    @staticmethod
    def tolerance_for(case, item, dtype, expected):
        return 1e-7, 1e-9


def _wrong_split(case: Any, feature: int, threshold: float, f_want: int, lo: float, hi: float, g_want: float) -> str:
    said = tr("feature is {got}, expected {want}: the best split is x[{want}] <= t for t in [{lo:.8g}, {hi:.8g}], "
              "gain {gain:.6g}", got=feature, want=f_want, lo=lo, hi=hi, gain=g_want)
    if not words_wanted() or not 0 <= feature < case.inputs.args["X"].shape[1]:
        return said
    return said + _yours(case, feature, threshold, g_want)


def _outside(case: Any, feature: int, threshold: float, lo: float, hi: float, g_want: float) -> str:
    said = tr("threshold is {got:.8g}, outside [{lo:.8g}, {hi:.8g}]: the largest value going left and the smallest "
              "going right of the best split on feature {f} (gain {gain:.6g}); a threshold outside names another "
              "partition", got=threshold, lo=lo, hi=hi, f=feature, gain=g_want)
    return said + (_yours(case, feature, threshold, g_want) if words_wanted() else "")


def _yours(case: Any, feature: int, threshold: float, g_want: float) -> str:
    """The contract's gain of the learner's own split, and the tie rule when it is tied with the best."""
    found = _gain_of(case, feature, threshold) if math.isfinite(threshold) else None
    if found is None:
        return "\n" + tr("your split (feature {f}, threshold {t:.8g}) leaves one side empty", f=feature, t=threshold)
    gain = found[0]
    said = "\n" + tr("your split (feature {f}, threshold {t:.8g}) gains {gain:.6g} by the contract's formula",
                     f=feature, t=threshold, gain=gain)
    if abs(gain - g_want) <= 1e-12:
        said += "\n" + tr("it ties with the best: equal gains go to the lowest feature, then the lowest split")
    return said


def _breakdown(case: Any, feature: int, threshold: float) -> str:
    gain, n_left, parent, i_left, i_right = _gain_of(case, feature, threshold)
    n = len(case.inputs.args["y"])
    unit = tr(" (entropy in bits: log2)") if case.inputs.args.get("criterion") == "entropy" else ""
    return tr("gain = I(S) - n_L/N * I(L) - n_R/N * I(R) = {parent:.6g} - {nl}/{n} * {il:.6g} - {nr}/{n} * {ir:.6g} "
              "= {gain:.6g}{unit}", parent=parent, nl=n_left, n=n, il=i_left, nr=n - n_left, ir=i_right, gain=gain,
              unit=unit)


def matches(kata: Any, case: Any, expected: list[Outcome], variant: Outcome, got: Outcome) -> bool | None:
    """Whether the learner's answer is the variant's: both None, or the same feature, thresholds that can name the
    same partition, and gains alike at float32's level (two writings of one wrong formula)."""
    if case.inputs.raises is not None:
        return None
    a, b = variant.value, got.value
    if a is None or b is None:
        return a is None and b is None
    mine, _ = split_outputs(kata, a)
    theirs, _ = split_outputs(kata, b)
    if mine is None or theirs is None:
        return mine is None and theirs is None and describe(a) == describe(b)
    f_a, f_b = _feature_of(mine["feature"]), _feature_of(theirs["feature"])
    t_a, t_b = _float_or_int(mine["threshold"]), _float_or_int(theirs["threshold"])
    g_a, g_b = _float_or_int(mine["gain"]), _float_or_int(theirs["gain"])
    if None in (f_a, f_b, t_a, t_b, g_a, g_b) or f_a != f_b or not 0 <= f_a < case.inputs.args["X"].shape[1]:
        return False
    if not (_sides(case, f_a, t_a) & _sides(case, f_b, t_b)):
        return False
    return g_a == g_b or (math.isfinite(g_a) and math.isfinite(g_b) and abs(g_a - g_b) <= 1e-5 + 1e-4 * abs(g_a))


# ---------------------------------------------------------------- known mistakes


def _variant(*, log="log2", gini="squared", children="weighted", scan="values", order="stable", threshold="midpoint",
             ties="first", start=-math.inf, pure_check=True, returned="gain", ratio=False, labels="unique",
             features="given", criteria="strict", in_place=False):
    """A loop over each feature's sorted values with one switch turned.

    log: "log2" | "ln" (entropy in nats). gini: "squared" | "linear" (1 − Σp: always 0). children: "weighted" |
    "mean" | "sum" (child impurities not weighted by their sizes). scan: "values" (each distinct value but the
    largest, x <= v going left), "lt_short" (the same bounds with x < v: the last split never tried), "all_values"
    (the largest value too, an empty side counting impurity 0: a constant feature gives a split), "positions"
    (every position of the sorted samples, between equal values too), "unsorted_labels" (the sorted values with
    the labels in their original order). order: how "positions" sorts ("stable" argsort, or "label": ties by label,
    as sorted(zip(x, y))). threshold: "midpoint" | "unsorted" (the midpoint of two neighbours of the unsorted
    column). ties: "first" (>) | "last" (>=). start: the best gain before the scan (0: an all-zero node gives None).
    returned: "gain" | "children" (the weighted child impurity returned as the gain). ratio: C4.5's gain ratio.
    labels: "unique" | "bincount" | "eye" (labels assumed 0 … K − 1). features: "given" | "ignored" (the feature
    argument never read) | "falsy" (`if feature:`, so feature 0 searches all) | "first" (feature 0 when None).
    criteria: "strict" | "fallback" (anything but gini is entropy). in_place: sorts each column of X in place."""
    def best_split(X, y, criterion="gini", feature=None):
        if criteria == "strict" and criterion not in ("gini", "entropy"):
            raise ValueError(f"unknown criterion {criterion}")
        classes = np.unique(y)
        if pure_check and len(classes) < 2:
            return None

        def impurity(labels_of_side):
            n = len(labels_of_side)
            if n == 0:
                return 0.0
            if labels == "bincount":
                counts = np.bincount(labels_of_side)
            elif labels == "eye":
                counts = np.eye(len(classes))[labels_of_side].sum(axis=0)
            else:
                counts = np.array([np.sum(labels_of_side == c) for c in classes])
            p = counts / n
            if criterion == "gini":
                return 1.0 - np.sum(p**2) if gini == "squared" else 1.0 - np.sum(p)
            p = p[p > 0]
            return -np.sum(p * (np.log2(p) if log == "log2" else np.log(p)))

        n = len(y)
        parent = impurity(y)
        if features == "ignored":
            searched = range(X.shape[1])
        elif features == "falsy":
            searched = [feature] if feature else range(X.shape[1])
        elif features == "first":
            searched = [feature if feature is not None else 0]
        else:
            searched = range(X.shape[1]) if feature is None else [feature]
        best, best_score = None, start
        for j in searched:
            for left, t in _splits(X, y, j, scan, order, threshold, in_place):
                n_left = len(left[0])
                if scan != "all_values" and n_left in (0, n):
                    continue
                i_left, i_right = impurity(left[0]), impurity(left[1])
                if children == "weighted":
                    weighted = n_left / n * i_left + (n - n_left) / n * i_right
                else:
                    weighted = (i_left + i_right) / 2 if children == "mean" else i_left + i_right
                score = parent - weighted
                if ratio:
                    w = np.array([n_left, n - n_left]) / n
                    score = score / -np.sum(w * np.log2(w))
                if score > best_score or ties == "last" and score == best_score:
                    best_score = score
                    best = (j, float(t), float(weighted if returned == "children" else score))
        return best
    return best_split


def _splits(X, y, j, scan, order, threshold, in_place):
    """(labels going left, labels going right), threshold: each split of feature j that the scan tries."""
    col = X[:, j]
    if scan in ("values", "lt_short", "all_values"):
        values = np.unique(col)
        bounds = values if scan == "all_values" else values[:-1]
        for k, v in enumerate(bounds):
            left = col < v if scan == "lt_short" else col <= v
            t = v if scan in ("lt_short", "all_values") else (v + values[k + 1]) / 2
            yield (y[left], y[~left]), t
        return
    if scan == "positions":
        idx = np.lexsort((y, col)) if order == "label" else np.argsort(col, kind="stable")
        xs, ys = col[idx], y[idx]
        for i in range(len(col) - 1):
            yield (ys[:i + 1], ys[i + 1:]), (xs[i] + xs[i + 1]) / 2
        return
    idx = np.argsort(col, kind="stable")
    if in_place:
        col.sort()
        xs = col
    else:
        xs = col[idx]
    ys = y if scan == "unsorted_labels" else y[idx]
    for i in range(len(col) - 1):
        if xs[i] < xs[i + 1]:
            t = (col[i] + col[i + 1]) / 2 if threshold == "unsorted" else (xs[i] + xs[i + 1]) / 2
            yield (ys[:i + 1], ys[i + 1:]), t


MISTAKES = (
    Mistake("entropy_in_nats", _variant(log="ln")),
    Mistake("gini_not_squared", _variant(gini="linear")),
    Mistake("unweighted_children", _variant(children="mean")),
    Mistake("unweighted_children", _variant(children="sum")),
    Mistake("threshold_from_unsorted", _variant(scan="sorted", threshold="unsorted")),
    Mistake("last_split_missed", _variant(scan="lt_short")),
    Mistake("largest_value_candidate", _variant(scan="all_values")),
    Mistake("split_between_equal_values", _variant(scan="positions")),
    Mistake("split_between_equal_values", _variant(scan="positions", order="label")),
    Mistake("ties_to_last", _variant(ties="last")),
    Mistake("zero_gain_is_none", _variant(start=0.0)),
    Mistake("pure_node_split", _variant(pure_check=False)),
    Mistake("child_impurity_returned", _variant(returned="children")),
    Mistake("gain_ratio", _variant(ratio=True)),
    Mistake("labels_assumed_0_to_k", _variant(labels="bincount")),
    Mistake("labels_assumed_0_to_k", _variant(labels="eye")),
    Mistake("feature_ignored", _variant(features="ignored")),
    Mistake("feature_zero_falsy", _variant(features="falsy")),
    Mistake("only_feature_0", _variant(features="first")),
    Mistake("prefix_counts_unsorted", _variant(scan="unsorted_labels")),
    Mistake("unknown_criterion_accepted", _variant(criteria="fallback")),
    Mistake("column_sorted_in_place", _variant(scan="sorted", in_place=True)),
)


def _bench(g: torch.Generator) -> Inputs:
    rng = _rng(g)
    X = rng.standard_normal((5000, 16))
    return _inputs(X, _labelled(rng, X, [0, 1, 2, 3], 3, 0.3), "entropy")


# `kata check decision-tree-split --bench`: 5000 samples, 16 features, 4 classes.
BENCH = ("X [5000, 16], 4 classes, entropy", _bench)
