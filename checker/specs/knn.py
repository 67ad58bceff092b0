"""Case families for `knn` (NumPy): majority vote of the k nearest training points by Euclidean distance,
equal votes to the smallest label, any choice among the points tied at the k-th distance.

Two rules are exact, and their cases are built for it. Vote ties (two-way and three-way, at distinct distances,
the nearest point holding a larger label) must go to the smallest label. Distance ties at the k-th place may be
filled by any of the tied points: the comparison accepts every label some such choice gives (`allowed`, computed
without enumerating choices). Tie cases are small integers, on which every order of floating-point operations gets
the tie exactly. Every other case keeps, for each query, the relative gap between its k-th and (k+1)-th squared
distance at least 1e-9 (float64) / 1e-3 (float32), measured against what an expanded distance rounds on
(d + ||q||² + ||x||²), so rounding never picks a neighbour — except `far_from_origin`, whose gap is measured
against the distance alone: there the float32 expansion ||q||² - 2q·x + ||x||² rounds away every distance, and fails.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable

import numpy as np
import torch

from checker.judge.codec import TensorValue
from checker.judge.compare import compare_values, split_outputs
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.text.i18n import tr

_OMIT = object()  # leave k out of the call, so its default (5) is used
GAP = {np.float64: 1e-9, np.float32: 1e-3}
MATCH_GAP = {np.float64: 1e-12, np.float32: 1e-5}  # nearer than this, two writings of one mistake may rank either way


# ---------------------------------------------------------------- the exact rule, in float64


def squared_distances(X_train: np.ndarray, X_test: np.ndarray) -> np.ndarray:
    """(M, N) squared distances of the given values, subtracted first in float64 (exact on small integers)."""
    diff = X_test[:, None, :].astype(np.float64) - X_train[None, :, :].astype(np.float64)  # (M, N, D)
    return (diff**2).sum(axis=-1)


def _gaps(X_train: np.ndarray, X_test: np.ndarray, k: int, strict: bool = True) -> np.ndarray:
    """(M,) each query's relative gap between its k-th and (k+1)-th squared distance (inf when k = N); strict
    measures it against d + ||q||² + max ||x||², what an expanded distance loses digits to."""
    d2 = np.sort(squared_distances(X_train, X_test), axis=1)
    if k >= d2.shape[1]:
        return np.full(d2.shape[0], np.inf)
    scale = d2[:, k].copy()
    if strict:
        scale += (X_test.astype(np.float64) ** 2).sum(1) + (X_train.astype(np.float64) ** 2).sum(1).max()
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(scale > 0, (d2[:, k] - d2[:, k - 1]) / scale, 0.0)


def allowed(d2: np.ndarray, y: np.ndarray, k: int) -> set[int]:
    """The labels some choice among the points tied at the k-th distance makes the winner (equal votes to the
    smallest label). Label L can win iff, after taking as many tied points of L as fit, the other places can go
    to other tied points without any label beating L's count (or equalling it while smaller)."""
    t = np.sort(d2)[k - 1]
    inside = Counter(int(v) for v in y[d2 < t])
    tied = Counter(int(v) for v in y[d2 == t])
    places = k - sum(inside.values())
    winners = set()
    for L in set(inside) | set(tied):
        taken = min(tied[L], places)
        count = inside[L] + taken
        room = 0
        for j in set(inside) | set(tied):
            if j == L:
                continue
            bound = count - 1 if j < L else count
            if inside[j] > bound:
                break
            room += min(tied[j], bound - inside[j])
        else:
            if room >= places - taken:
                winners.add(L)
    return winners


def _facts(case: Any) -> tuple[list[set[int]], list[tuple[list[int], int] | None]]:
    """Per query: the allowed labels, and (the tied labels, their votes) where the lowest-index choice ties votes."""
    cached = getattr(case.inputs, "_knn_facts", None)
    if cached is not None:
        return cached
    args = case.inputs.args
    X_train, y, X_test = args["X_train"], np.asarray(args["y_train"]).astype(np.int64), args["X_test"]
    k = int(args.get("k", 5))
    d2 = squared_distances(X_train, X_test)
    sets, ties = [], []
    for row in d2:
        sets.append(allowed(row, y, k))
        votes = Counter(int(v) for v in y[np.argsort(row, kind="stable")[:k]])
        top = max(votes.values())
        tied = sorted(label for label, c in votes.items() if c == top)
        ties.append((tied, top) if len(tied) > 1 else None)
    case.inputs._knn_facts = (sets, ties)
    return sets, ties


def _ambiguous(case: Any) -> np.ndarray:
    """(M,) the queries whose order among their k + 1 nearest points is tied or nearly so: two writings of one
    mistake may rank those points differently (a stable sort or not; float32 rounding far from the origin)."""
    args = case.inputs.args
    X_train, X_test = args["X_train"], args["X_test"]
    k = int(args.get("k", 5))
    d2 = np.sort(squared_distances(X_train, X_test), axis=1)[:, :k + 1]
    scale = d2[:, -1:] + (X_test.astype(np.float64) ** 2).sum(1)[:, None] + (X_train.astype(np.float64) ** 2).sum(1).max()
    if d2.shape[1] < 2:
        return np.zeros(d2.shape[0], dtype=bool)
    near = np.diff(d2, axis=1) <= MATCH_GAP[X_train.dtype.type] * scale
    return near.any(axis=1)


# ---------------------------------------------------------------- drawing cases


def _rng(g: torch.Generator) -> np.random.Generator:
    return np.random.default_rng(int(torch.randint(2**62, (1,), generator=g)))


def _inputs(X_train, y_train, X_test, k: object = 5) -> Inputs:
    args = {"X_train": X_train, "y_train": y_train, "X_test": X_test}
    if k is not _OMIT:
        args["k"] = k
    return Inputs(args=args, show={"k": 5 if k is _OMIT else k})


def _shuffled(rng: np.random.Generator, X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = rng.permutation(len(X))
    return X[order], y[order]


def _clusters(rng: np.random.Generator, N: int, D: int, labels: list[int], spread: float) -> tuple[np.ndarray, np.ndarray]:
    """N points around one centre per label, a few units apart (overlapping a little), in random order."""
    centres = rng.uniform(-3, 3, (len(labels), D))
    y = np.array(labels)[rng.integers(0, len(labels), N)]
    X = centres[[labels.index(v) for v in y]]
    return X + spread * rng.standard_normal((N, D)), y


def _safe_queries(rng: np.random.Generator, X_train: np.ndarray, make_query: Callable[[int], np.ndarray], M: int,
                  k: int, dtype, strict: bool = True) -> np.ndarray:
    """M queries, each redrawn until its k-th / (k+1)-th gap is safe in dtype."""
    rows = []
    Xt = X_train.astype(dtype)
    while len(rows) < M:
        q = make_query(1).astype(dtype)
        if _gaps(Xt, q, k, strict)[0] >= GAP[dtype]:
            rows.append(q[0])
    return np.array(rows, dtype=dtype).reshape(M, X_train.shape[1])


def _drawn(*, N: int = 30, D: int = 2, M: int = 12, k: object = 5, labels=(0, 1, 2), dtype=np.float64,
           y_dtype=np.int64, spread: float = 1.0, offset: float = 0.0, strict: bool = True,
           near: bool = False, until: Callable[[Inputs], bool] | None = None) -> Callable[[torch.Generator], Inputs]:
    """Clustered training points and queries among them (near: beside training points), every query's k-th gap
    safe (redrawn until `until`)."""
    def draw(g: torch.Generator) -> Inputs:
        rng = _rng(g)
        kk = 5 if k is _OMIT else k
        for _ in range(200):
            X, y = _clusters(rng, N, D, list(labels), spread)
            X = (X + offset).astype(dtype)
            if near:
                Q = _safe_queries(rng, X, lambda m: X[rng.integers(0, N, m)] + spread * rng.standard_normal((m, D)),
                                  M, kk, dtype, strict)
            else:
                Q = _safe_queries(rng, X, lambda m: offset + rng.uniform(-4, 4, (m, D)), M, kk, dtype, strict)
            inputs = _inputs(X, y.astype(y_dtype), Q, k)
            if until is None or until(inputs):
                return inputs
        raise RuntimeError("no knn draw found: widen the family's ranges")
    return draw


def _fixed(X_train, y_train, X_test, k: object, y_dtype=np.int64, shuffle: bool = True) -> Callable[[torch.Generator], Inputs]:
    """Small-integer points (every tie exact), the training points in a random order."""
    def make(g: torch.Generator) -> Inputs:
        X, y = np.array(X_train, dtype=np.float64), np.array(y_train)
        if shuffle:
            X, y = _shuffled(_rng(g), X, y)
        return _inputs(X, y.astype(y_dtype), np.array(X_test, dtype=np.float64).reshape(-1, X.shape[1]), k)
    return make


def _counter_fails(inputs: Inputs) -> bool:
    """Some query's votes tie at distinct distances with the nearest tied point holding the larger label."""
    case = _Probe(inputs)
    return not _same(_vote_nearest(**inputs.args), _facts(case)[0])


def _same(labels: np.ndarray, sets: list[set[int]]) -> bool:
    return all(int(v) in s for v, s in zip(np.asarray(labels).tolist(), sets))


class _Probe:
    """A stand-in case for drawing: what `_facts` reads."""

    def __init__(self, inputs: Inputs):
        self.inputs = inputs


def _vote_tie_two(g: torch.Generator) -> Inputs:
    """1-D, k = 4: the nearest points by distance hold 7, 2, 7, 2 — two votes each, so 2 wins, not the nearest's 7.
    The second query's neighbours are 2, 7, 2, 7 (2 wins either way); the third's 7, 7, 2, 9 (7 has more votes)."""
    X = [[1], [2], [3], [4], [10], [11], [12], [13], [20], [21], [22], [23], [40]]
    y = [7, 2, 7, 2, 2, 7, 2, 7, 7, 7, 2, 9, 5]
    return _fixed(X, y, [[0.0], [9.0], [19.0]], 4)(g)


def _vote_tie_three(g: torch.Generator) -> Inputs:
    """k = 3, three labels one vote each at distinct distances: the nearest holds the middle label (5), then 9, then 1,
    so 1 wins (the nearest-first rule says 5, the largest-label rule 9); the second query's neighbours are 3, 3, 8 (a
    plain majority), the third's 1, 9, 5 (a tie the nearest's label wins too)."""
    X = [[0, 1], [0, 2], [0, 3], [5, 0], [6, 0], [7, 0], [0, -9], [0, -10], [0, -11]]
    y = [5, 9, 1, 3, 3, 8, 1, 9, 5]
    return _fixed(X, y, [[0, 0], [4, 0], [0, -8]], 3)(g)


def _tie_at_kth(g: torch.Generator) -> Inputs:
    """Integer grid, k = 3: one point at distance 1 (label 4), then four points tied at distance 2 holding 4, 6, 6, 9:
    the second and third places go to any two of them, so 4 (a 4 taken, or 6 and 9 beside it: a three-way vote tie)
    or 6 (both 6s) may win, never 9. The second query has the same tie one place further."""
    X = [[1, 0], [2, 0], [0, 2], [-2, 0], [0, -2], [5, 5], [6, 5]]
    y = [4, 4, 6, 6, 9, 1, 1]
    return _fixed(X, y, [[0, 0], [0, 0.5]], 3)(g)


def _tie_heavy_grid(k: int):
    def make(g: torch.Generator) -> Inputs:
        """A 5 x 5 grid of unit spacing with random labels in -2..2, queries on grid points and half-way between:
        many queries have several points tied at the k-th distance."""
        rng = _rng(g)
        X = np.array([[i, j] for i in range(5) for j in range(5)], dtype=np.float64)
        y = rng.integers(-2, 3, len(X))
        Q = rng.integers(0, 9, (16, 2)) / 2.0
        X, y = _shuffled(rng, X, y)
        return _inputs(X, y, Q, k)
    return make


def _duplicates(g: torch.Generator) -> Inputs:
    """The same point three times, labels 3, 3, 8, plus others further: k = 3 at that point takes all three (3 wins);
    k = 1 there is a tie between the three copies (3 or 8)."""
    X = [[1, 1], [1, 1], [1, 1], [4, 4], [5, 4], [4, 5]]
    y = [8, 3, 3, 2, 2, 2]
    return _fixed(X, y, [[1, 1], [1.5, 1], [4, 4]], 3)(g)


def _duplicates_k1(g: torch.Generator) -> Inputs:
    X = [[1, 1], [1, 1], [1, 1], [4, 4], [5, 4], [4, 5]]
    y = [8, 3, 3, 2, 2, 2]
    return _fixed(X, y, [[1, 1], [2, 2], [4.5, 4]], 1)(g)


def _queries_on_training(g: torch.Generator) -> Inputs:
    """The queries are training points themselves, k = 1: each is its own nearest neighbour (distance 0)."""
    rng = _rng(g)
    X, y = _clusters(rng, 20, 3, [0, 1, 2, 3], 1.5)
    pick = rng.choice(20, 8, replace=False)
    return _inputs(X, y, X[pick].copy(), 1)


def _queries_on_training_k3(g: torch.Generator) -> Inputs:
    rng = _rng(g)
    for _ in range(200):
        X, y = _clusters(rng, 24, 2, [0, 1, 2], 1.5)
        Q = X[rng.choice(24, 8, replace=False)].copy()
        if (_gaps(X, Q, 3) >= GAP[np.float64]).all():
            return _inputs(X, y, Q, 3)
    raise RuntimeError("no knn draw found")


def _k_equals_n(g: torch.Generator) -> Inputs:
    """k = N = 9: every query gets the majority of all labels (4 x -1, 4 x 6, 1 x 2: a vote tie, -1 wins)."""
    rng = _rng(g)
    X = rng.uniform(-3, 3, (9, 2))
    y = np.array([6, -1, 6, -1, 2, 6, -1, 6, -1])
    return _inputs(X, y, rng.uniform(-3, 3, (5, 2)), 9)


def _k_equals_n_majority(g: torch.Generator) -> Inputs:
    rng = _rng(g)
    X = rng.uniform(-3, 3, (7, 3))
    y = np.array([0, 1, 1, 0, 1, 2, 1])
    return _inputs(X, y, rng.uniform(-3, 3, (4, 3)), 7)


def _single_training_point(g: torch.Generator) -> Inputs:
    rng = _rng(g)
    return _inputs(rng.uniform(-1, 1, (1, 2)), np.array([42]), rng.uniform(-3, 3, (3, 2)), 1)


def _no_queries(dtype, D: int = 3):
    def make(g: torch.Generator) -> Inputs:
        rng = _rng(g)
        X, y = _clusters(rng, 10, D, [0, 1], 1.0)
        return _inputs(X.astype(dtype), y, np.zeros((0, D), dtype=dtype), 3)
    return make


def _negative_sparse(g: torch.Generator) -> Inputs:
    """Labels -7, 0 and 100, k = 4: bincount raises on -7; some query's votes tie 2-2 (the nearest holding the larger)."""
    return _drawn(N=36, D=2, M=14, k=4, labels=(-7, 0, 100), spread=1.4, until=_counter_fails)(g)


def _y_dtype(y_dtype, labels=(0, 3, 5)):
    return _drawn(N=25, D=2, M=10, k=3, labels=labels, y_dtype=y_dtype, spread=1.2)


def _far(dtype):
    """40 points with random labels in a box of side 2 centred 3000 from the origin in every coordinate, queries
    inside it: the float32 expansion ||q||² - 2q·x + ||x||² rounds on values of 2.7e7, whose float32 spacing (2)
    swamps squared distances below 4, so it ranks the neighbours at random; subtracting first is exact there."""
    def make(g: torch.Generator) -> Inputs:
        rng = _rng(g)
        for _ in range(200):
            X = (3000.0 + rng.uniform(-1, 1, (40, 3))).astype(dtype)
            y = rng.integers(0, 3, 40)
            Q = _safe_queries(rng, X, lambda m: 3000.0 + rng.uniform(-1, 1, (m, 3)), 16, 5, dtype, strict=False)
            inputs = _inputs(X, y, Q, 5)
            if dtype != np.float32 or not _same(_expanded_in_dtype(**inputs.args), _facts(_Probe(inputs))[0]):
                return inputs
        raise RuntimeError("no knn draw found")
    return make


def _random(g: torch.Generator) -> Inputs:
    rng = _rng(g)
    dtype = np.float32 if rng.random() < 0.4 else np.float64
    N, D, M = int(rng.integers(5, 60)), int(rng.integers(1, 7)), int(rng.integers(1, 21))
    k = int(rng.integers(1, min(N, 15) + 1))
    C = int(rng.integers(2, 6))
    labels = sorted(int(v) for v in rng.choice(np.arange(-10, 20), C, replace=False))
    y_dtype = np.int64 if rng.random() < 0.6 else rng.choice([np.int32, np.int16, np.int8])
    if rng.random() < 0.5:
        X, y = _clusters(rng, N, D, labels, float(rng.uniform(0.5, 2.5)))
    else:
        X, y = rng.uniform(-3, 3, (N, D)), np.array(labels)[rng.integers(0, C, N)]
    X = X.astype(dtype)
    Q = _safe_queries(rng, X, lambda m: rng.uniform(-4, 4, (m, D)), M, k, dtype)
    return _inputs(X, y.astype(y_dtype), Q, k)


FAMILIES = (
    Family("clustered", _drawn()),
    Family("default_k", _drawn(N=40, M=16, k=_OMIT, labels=(0, 1, 2, 3), spread=1.4, until=_counter_fails)),
    Family("vote_tie_two_way", _vote_tie_two),
    Family("vote_tie_three_way", _vote_tie_three),
    Family("tie_at_kth_distance", _tie_at_kth),
    Family("tie_heavy_grid", _tie_heavy_grid(4)),
    Family("tie_heavy_grid_k5", _tie_heavy_grid(5)),
    Family("k_one", _drawn(N=20, M=10, k=1, labels=(1, 2, 3))),
    Family("k_equals_n", _k_equals_n),
    Family("k_equals_n_majority", _k_equals_n_majority),
    Family("single_training_point", _single_training_point),
    Family("queries_on_training_points", _queries_on_training),
    Family("queries_on_training_points_k3", _queries_on_training_k3),
    Family("duplicate_points_different_labels", _duplicates),
    Family("duplicate_points_k1", _duplicates_k1),
    Family("negative_sparse_labels", _negative_sparse),
    Family("int32_labels", _y_dtype(np.int32)),
    Family("int8_labels", _y_dtype(np.int8, (-3, 0, 7))),
    Family("int16_labels", _y_dtype(np.int16, (-300, 5, 1000))),
    Family("uint8_labels", _y_dtype(np.uint8, (1, 200, 255))),
    Family("float32", _drawn(N=30, D=4, M=12, k=5, dtype=np.float32)),
    Family("far_from_origin_float32", _far(np.float32)),
    Family("far_from_origin_float64", _far(np.float64)),
    Family("no_queries", _no_queries(np.float64)),
    Family("no_queries_float32", _no_queries(np.float32, 1)),
    Family("one_d", _drawn(N=20, D=1, M=10, k=3)),
    Family("high_d", _drawn(N=30, D=40, M=8, k=7, labels=(0, 1, 2, 3), spread=0.8)),
    Family("random", _random, draws=80),
)


# ---------------------------------------------------------------- hooks


def compare(kata: Any, case: Any, expected: list[Outcome], got: Outcome) -> list[Problem]:
    """An int64 array [M] whose every prediction lies in its query's allowed set; a failing vote tie says the rule."""
    item = kata.outputs[0]
    want, _ = split_outputs(kata, expected[0].value)
    have, problems = split_outputs(kata, got.value)
    if have is None:
        return problems
    exp, out = want[item], have[item]
    structure = compare_values(item, TensorValue(None, exp.dtype, exp.shape, exp.device), out, 0.0, 0.0)
    if structure or out.data is None:
        return structure
    sets, ties = _facts(case)
    labels = out.data.tolist()
    bad = [i for i, (v, s) in enumerate(zip(labels, sets)) if v not in s]
    if not bad:
        return []
    i = bad[0]
    want_words = str(next(iter(sets[i]))) if len(sets[i]) == 1 else tr("one of {labels}", labels=sorted(sets[i]))
    message = tr("{n} of {m} labels differ: query {i} expected {want}, yours {got}",
                 n=len(bad), m=len(labels), i=i, want=want_words, got=labels[i])
    # The tie rule is said where it explains every wrong query: each a vote tie answered with a larger tied label.
    tie = bad[0] if all(ties[j] is not None and labels[j] in ties[j][0] for j in bad) else None
    if tie is not None:
        tied, votes = ties[tie]
        message += "\n" + tr("vote tie: the smallest label wins (query {i}: labels {labels} have {votes} of the "
                             "k = {k} votes each, so {smallest})", i=tie, labels=tied, votes=votes,
                             k=int(case.inputs.args.get("k", 5)), smallest=tied[0])
    return [Problem("values", item, message)]


def matches(kata: Any, case: Any, expected: list[Outcome], variant: Outcome, got: Outcome) -> bool | None:
    """Two writings of one mistake agree wherever the query's k + 1 nearest points are ranked unambiguously; where
    they are tied (or nearly, in float32 far from the origin) a stable sort or another rounding may pick differently."""
    mine, _ = split_outputs(kata, variant.value)
    theirs, _ = split_outputs(kata, got.value)
    if mine is None or theirs is None:
        return None
    a, b = mine[kata.outputs[0]], theirs[kata.outputs[0]]
    if not (isinstance(a, TensorValue) and isinstance(b, TensorValue)) or a.data is None or b.data is None:
        return None
    if (a.shape, a.dtype, a.is_numpy) != (b.shape, b.dtype, b.is_numpy) or len(a.shape) != 1:
        return None
    if a.shape[0] != case.inputs.args["X_test"].shape[0]:
        return None
    differ = (a.data != b.data).numpy()
    return not (differ & ~_ambiguous(case)).any()


# ---------------------------------------------------------------- known mistakes


def _variant(*, votes="smallest", distance="euclidean", start=0, extra=0, farthest=False, weighted=None,
             standardise=False, out="int64", empty="fine", sort="quicksort"):
    """kNN with one switch turned. votes: "smallest" | "nearest" (Counter.most_common over the neighbours in
    distance order) | "largest" | "mean" (the rounded mean label) | "bincount" (np.bincount(...).argmax(), which
    raises on negative labels); distance: "euclidean" | "manhattan"; start/extra: the neighbours taken are
    order[start:k + extra]; weighted: None | "inverse" (1/(d + 1e-8)) | "inverse_square"; out: "int64" | "y_dtype" |
    "float64" (filled into np.zeros(M)) | "list"; empty: "fine" | "float" (np.array of a list: float64 when there
    is no query) | "stack" (raises); sort: how points at equal distances are ordered: "quicksort" (np.argsort's
    default, which most code leaves), "stable" (lowest index first, as sorted() over (distance, index) pairs) or
    "label" (smallest label first, as sorted() over (distance, label) pairs)."""
    def knn_predict(X_train, y_train, X_test, k=5):
        A, B = X_train.astype(np.float64), X_test.astype(np.float64)
        if standardise:
            mu, sd = A.mean(axis=0), A.std(axis=0) + 1e-12
            A, B = (A - mu) / sd, (B - mu) / sd
        predictions = []
        for q in B:
            if distance == "manhattan":
                d = np.abs(A - q).sum(axis=1)
            else:
                d = np.sqrt(((A - q) ** 2).sum(axis=1))
            key = -d if farthest else d
            order = np.lexsort((y_train, key)) if sort == "label" else np.argsort(key, kind=sort)
            idx = order[start:k + extra]
            near = y_train[idx].astype(np.int64)
            if weighted is not None:
                w = 1.0 / (d[idx] + 1e-8) if weighted == "inverse" else 1.0 / (d[idx] ** 2 + 1e-8)
                classes = np.unique(near)
                score = np.array([w[near == c].sum() for c in classes])
                predictions.append(int(classes[np.argmax(score)]))
            elif votes == "nearest":
                predictions.append(Counter(near.tolist()).most_common(1)[0][0])
            elif votes == "largest":
                classes, counts = np.unique(near, return_counts=True)
                predictions.append(int(classes[len(counts) - 1 - np.argmax(counts[::-1])]))
            elif votes == "mean":
                predictions.append(int(np.round(near.mean())))
            elif votes == "bincount":
                predictions.append(int(np.bincount(near).argmax()))
            else:
                classes, counts = np.unique(near, return_counts=True)
                predictions.append(int(classes[np.argmax(counts)]))
        if out == "list":
            return predictions
        if empty == "float":
            return np.array(predictions)  # int64 from Python ints, but float64 when there is no query
        if empty == "stack":
            return np.stack([np.int64(p) for p in predictions])
        if out == "y_dtype":
            return np.array(predictions, dtype=y_train.dtype)
        if out == "float64":
            return np.array(predictions, dtype=np.float64)
        return np.array(predictions, dtype=np.int64)
    return knn_predict


def _expanded_in_dtype(X_train, y_train, X_test, k=5):
    """CS231n's no-loop distances, ||q||² - 2q·x + ||x||², computed in the inputs' dtype."""
    d2 = (X_test**2).sum(axis=1)[:, None] - 2 * X_test @ X_train.T + (X_train**2).sum(axis=1)[None, :]
    nearest = np.argsort(d2, axis=1)[:, :k]
    out = np.empty(X_test.shape[0], dtype=np.int64)
    for i, idx in enumerate(nearest):
        classes, counts = np.unique(y_train[idx], return_counts=True)
        out[i] = classes[np.argmax(counts)]
    return out


def _centred_in_place(X_train, y_train, X_test, k=5):
    """Both point sets centred on the training mean, in place: distances are unchanged, the caller's arrays are not."""
    mu = X_train.mean(axis=0)
    X_train -= mu
    X_test -= mu
    d2 = ((X_test[:, None, :] - X_train[None, :, :]) ** 2).sum(-1)
    nearest = np.argsort(d2, axis=1)[:, :k]
    out = np.empty(X_test.shape[0], dtype=np.int64)
    for i, idx in enumerate(nearest):
        classes, counts = np.unique(y_train[idx], return_counts=True)
        out[i] = classes[np.argmax(counts)]
    return out


MISTAKES = (
    Mistake("vote_tie_nearest", _variant(votes="nearest"), "argsort"),
    Mistake("vote_tie_nearest", _variant(votes="nearest", sort="stable"), "stable"),
    Mistake("vote_tie_nearest", _variant(votes="nearest", sort="label"), "label"),
    Mistake("vote_tie_largest", _variant(votes="largest")),
    Mistake("nearest_skipped", _variant(start=1, extra=1)),
    Mistake("k_plus_one", _variant(extra=1)),
    Mistake("farthest", _variant(farthest=True)),
    Mistake("manhattan", _variant(distance="manhattan")),
    Mistake("distance_weighted", _variant(weighted="inverse"), "inverse"),
    Mistake("distance_weighted", _variant(weighted="inverse_square"), "inverse_square"),
    Mistake("mean_label", _variant(votes="mean")),
    Mistake("bincount_negative", _variant(votes="bincount")),
    Mistake("expanded_float32", _expanded_in_dtype),
    Mistake("standardised", _variant(standardise=True)),
    Mistake("label_dtype_kept", _variant(out="y_dtype")),
    Mistake("labels_float", _variant(out="float64")),
    Mistake("list_returned", _variant(out="list")),
    Mistake("empty_float", _variant(empty="float")),
    Mistake("no_queries_crash", _variant(empty="stack")),
    Mistake("input_centred_in_place", _centred_in_place),
)


def _vote_nearest(X_train, y_train, X_test, k=5):
    return MISTAKES[0].fn(X_train, y_train, X_test, k)


def _bench(g: torch.Generator) -> Inputs:
    rng = _rng(g)
    X = rng.standard_normal((5000, 16))
    return Inputs(args={"X_train": X, "y_train": rng.integers(0, 10, 5000), "X_test": rng.standard_normal((500, 16)),
                      "k": 7})


# `kata check knn --bench`: 5 000 training points in 16 dims, 500 queries, k = 7.
BENCH = ("X_train [5000, 16], X_test [500, 16], k = 7", _bench)
