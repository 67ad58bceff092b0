"""knn (classic family, NumPy only): the contract's two strict rules and the one lenient one, as the spec states them.

- Equal votes go to the smallest label: the named vote-tie cases fail Counter.most_common's nearest-first rule and
  the largest-label rule, and their reports say "vote tie: the smallest label wins" (in both languages).
- Distance ties at the k-th place: `allowed` (the exact set, computed without enumerating) equals a brute-force
  enumeration of every choice of tied points on small-integer grids, and the comparison accepts exactly that set.
- Exact distances: far from the origin, the float32 expansion fails in every common writing, while subtracting first
  in float32, or expanding after an upcast, passes; every other case keeps the k-th gap safe, so rounding never picks
  a neighbour (float32 expansion passes them all).
- int64 out for every integer dtype of y; M = 0 gives an empty int64 array.
"""
from __future__ import annotations

import importlib
import itertools
from collections import Counter

import numpy as np
import pytest

from checker.judge import spec as spec_api
from checker.judge.mistakes import roundtrip
from checker.text import catalog, i18n
from tests.namer import first_failing_named_case
from tests.spec_support import reference_of

KNN = catalog.get("knn")
SPEC = importlib.import_module(KNN.spec_module)


def _ref(**args):
    knn_predict = reference_of(catalog.get("knn"))  # loaded by path, never as `reference.*`

    return knn_predict(**args)


def _judge(case, fn) -> list:
    want = [roundtrip(spec_api.Outcome(_ref(**case.inputs.args)))]
    args = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in case.inputs.args.items()}
    return SPEC.compare(KNN, case, want, roundtrip(spec_api.Outcome(fn(**args))))


def _case(name: str, seed: int = 1):
    return spec_api.build_cases(SPEC, seed, only=name)[0]


def _brute(d2: np.ndarray, y: np.ndarray, k: int) -> set[int]:
    """Every choice of the tied points at the k-th distance, voted with the smallest-label rule."""
    t = np.sort(d2)[k - 1]
    inside = list(y[d2 < t])
    tied = list(y[d2 == t])
    winners = set()
    for pick in itertools.combinations(range(len(tied)), k - len(inside)):
        votes = Counter(int(v) for v in inside + [tied[i] for i in pick])
        top = max(votes.values())
        winners.add(min(label for label, c in votes.items() if c == top))
    return winners


def test_the_allowed_set_is_every_choice_among_the_tied_points():
    rng = np.random.default_rng(0)
    checked = several = 0
    for _ in range(400):
        X = rng.integers(0, 4, (int(rng.integers(3, 13)), 2)).astype(np.float64)
        y = rng.integers(-2, 3, len(X))
        q = rng.integers(0, 7, (1, 2)) / 2.0
        k = int(rng.integers(1, len(X) + 1))
        d2 = SPEC.squared_distances(X, q)[0]
        assert SPEC.allowed(d2, y, k) == _brute(d2, y, k), (X.tolist(), y.tolist(), q, k)
        checked += 1
        several += len(SPEC.allowed(d2, y, k)) > 1
    assert several > 50  # the grids do tie: the rule is exercised, not only plain equality


def test_the_reference_passes_and_tie_cases_accept_exactly_the_allowed_labels():
    case = _case("tie_at_kth_distance")
    assert SPEC._facts(case)[0] == [{4, 6}, {4, 6}]
    for label, ok in ((4, True), (6, True), (9, False), (1, False)):
        got = np.full(2, label, dtype=np.int64)
        assert (not _judge(case, lambda **a: got)) == ok, label
    for name in ("tie_heavy_grid", "tie_heavy_grid_k5", "duplicate_points_k1"):
        assert not _judge(_case(name), _ref)


@pytest.mark.parametrize("name", ["vote_tie_two_way", "vote_tie_three_way", "default_k", "negative_sparse_labels",
                                  "k_equals_n"])
def test_vote_ties_go_to_the_smallest_label_and_the_report_says_so(name):
    case = _case(name)
    nearest_first = SPEC._variant(votes="nearest")
    problems = _judge(case, nearest_first)
    assert problems and "vote tie: the smallest label wins" in problems[0].message
    if name.startswith("vote_tie"):
        assert _judge(case, SPEC._variant(votes="largest"))
    KNN.text("zh")  # a kata's own messages are registered when its text is loaded
    with i18n.speaking("zh"):
        assert "投票平局时最小的标签胜出" in _judge(case, nearest_first)[0].message


def test_far_from_the_origin_only_an_exact_ranking_passes():
    expansions = {
        "matmul": lambda Q, X: (Q**2).sum(1)[:, None] - 2 * Q @ X.T + (X**2).sum(1)[None],
        "einsum": lambda Q, X: np.einsum("ij,ij->i", Q, Q)[:, None] - 2 * np.einsum("id,jd->ij", Q, X)
        + np.einsum("ij,ij->i", X, X)[None],
        "sqrt_clip": lambda Q, X: np.sqrt(np.maximum(-2 * Q.dot(X.T) + (X**2).sum(1) + (Q**2).sum(1)[:, None], 0)),
    }
    exact = {
        "subtract_float32": lambda Q, X: ((Q[:, None] - X[None]) ** 2).sum(-1),
        "norm_float32": lambda Q, X: np.linalg.norm(Q[:, None] - X[None], axis=-1),
        "upcast_then_expand": lambda Q, X: expansions["matmul"](Q.astype(np.float64), X.astype(np.float64)),
    }

    def voted(distance):
        def knn_predict(X_train, y_train, X_test, k=5):
            near = np.argsort(distance(X_test, X_train), axis=1)[:, :k]
            return np.array([min(Counter(r).most_common(), key=lambda lc: (-lc[1], lc[0]))[0] for r in
                             y_train[near].tolist()], dtype=np.int64).reshape(-1)
        return knn_predict

    for seed in (1, 2, 3):
        case = _case("far_from_origin_float32", seed)
        assert case.inputs.args["X_train"].dtype == np.float32
        for name, d in expansions.items():
            assert _judge(case, voted(d)), (name, seed)
        for name, d in exact.items():
            assert not _judge(case, voted(d)), (name, seed)
        assert not _judge(_case("far_from_origin_float64", seed), voted(expansions["matmul"]))


def test_every_other_case_keeps_the_kth_gap_safe_so_rounding_never_picks_a_neighbour():
    for case in spec_api.build_cases(SPEC, 5):
        a = case.inputs.args
        if not (case.name.startswith("random") or case.name in ("clustered", "default_k", "float32", "high_d")):
            continue
        dtype = a["X_train"].dtype.type
        gaps = SPEC._gaps(a["X_train"], a["X_test"], int(a.get("k", 5)))
        assert (gaps >= SPEC.GAP[dtype]).all(), case.name
        assert all(len(s) == 1 for s in SPEC._facts(case)[0]), case.name
        assert not _judge(case, SPEC._expanded_in_dtype), case.name  # the expansion is fine near the origin


def test_int64_out_for_every_label_dtype_and_no_queries():
    dtypes = {_case(n).inputs.args["y_train"].dtype for n in ("int32_labels", "int8_labels", "int16_labels",
                                                               "uint8_labels")}
    assert dtypes == {np.dtype(t) for t in ("int32", "int8", "int16", "uint8")}
    for name in ("int8_labels", "uint8_labels", "no_queries"):
        case = _case(name)
        out = _ref(**case.inputs.args)
        assert out.dtype == np.int64 and out.shape == (case.inputs.args["X_test"].shape[0],)
    assert _judge(_case("int8_labels"), SPEC._variant(out="y_dtype"))
    assert _judge(_case("no_queries"), SPEC._variant(empty="float"))


def test_the_case_count_and_every_known_mistake_fails_a_named_case():
    assert len(spec_api.case_names(SPEC)) >= 100
    assert len({m.key for m in SPEC.MISTAKES}) >= 8
    for seed in (1, 2):
        missed = [m.key for m in SPEC.MISTAKES if first_failing_named_case(KNN, m.fn, seed) is None]
        assert not missed, (seed, missed)
