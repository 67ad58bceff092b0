"""Case families for `kmeans` (NumPy, Lloyd's algorithm): three blobs started in one, max_iter 0/1/2/300,
float32, K = 1 and K = N, an exact distance tie, two identical initial centroids, a centroid that is empty
from the start, 1-D data, slow starts whose centroid shifts fall to 0.03 (and, scaled by 2^-17, to 2e-7;
moved 4096 from the origin, below np.allclose's rtol) while labels still change, then random draws.

Exact ties are part of the contract (ties to the lowest index): those cases are small integers, on which
every order of operations gets the tie exactly. Every other case keeps each assignment of the run (every
round and the final one) at a relative gap of at least 1e-9 (float64) / 1e-4 (float32) between the best and
the second-best squared distance, so rounding never decides a label. A failing case is shown as a scatter
of the points with the expected and the returned labels side by side (checker/specs/pictures/scatter.py).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

import numpy as np
import torch

from checker.judge.compare import compare_outcome, words_wanted
from checker.text.i18n import tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.judge.spec import call as default_call

_OMIT = object()  # leave max_iter out of the call, so its default (100) is used
GAP = {np.float64: 1e-9, np.float32: 1e-4}
NEW_ARRAY = "centroids shares memory with init_centroids"  # an extra the `call` hook records


# ---------------------------------------------------------------- the run, in float64, to keep cases safe


def _assign(X: np.ndarray, C: np.ndarray, strict: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Labels (ties to the lowest index) and each point's relative gap between its two nearest centroids."""
    d = ((X[:, None, :] - C[None, :, :]) ** 2).sum(-1)  # (N, K)
    labels = np.argmin(d, axis=1)
    if C.shape[0] == 1:
        return labels, np.full(X.shape[0], np.inf)
    nearest = np.argsort(d, axis=1, kind="stable")[:, :2]  # (N, 2) the two nearest centroids
    two = np.take_along_axis(d, nearest, axis=1)
    # Relative to what rounding works on: the distance itself, or ||x||² + ||c||² when the distance is
    # computed expanded (||x||² - 2x·c + ||c||², the fast way), which loses digits far from the origin.
    scale = two[:, 1]
    if strict:
        scale = scale + (X**2).sum(axis=1) + (C**2).sum(axis=1)[nearest].max(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        gap = np.where(scale > 0, (two[:, 1] - two[:, 0]) / scale, 0.0)
    return labels, gap


def run(X: np.ndarray, C0: np.ndarray, max_iter: int, strict: bool = True) -> tuple[np.ndarray, np.ndarray, dict]:
    """The contract's run in float64: (centroids, labels, facts) where facts has `gap` (the smallest relative
    gap of any assignment made), `rounds` (assignments before the stop), `converged`, `shifts` (the largest
    centroid move of each update), `changed` (labels that changed in each round after the first) and
    `centroids` (those each round assigned to)."""
    X, C = X.astype(np.float64), C0.astype(np.float64).copy()
    previous, gap, shifts, changed, converged, seen = None, np.inf, [], [], False, []
    rounds = 0
    for _ in range(max_iter):
        labels, g = _assign(X, C, strict)
        gap, rounds = min(gap, float(g.min())), rounds + 1
        seen.append(C)
        if previous is not None:
            changed.append(int((labels != previous).sum()))
            if changed[-1] == 0:
                converged = True
                break
        new = C.copy()
        for k in range(C.shape[0]):
            if (labels == k).any():
                new[k] = X[labels == k].mean(axis=0)
        shifts.append(float(np.abs(new - C).max()))
        C, previous = new, labels
    labels, g = _assign(X, C, strict)
    gap = min(gap, float(g.min()))
    return C, labels, {"gap": gap, "rounds": rounds, "converged": converged, "shifts": shifts, "changed": changed,
                       "centroids": seen}


def _safe(X: np.ndarray, C0: np.ndarray, max_iter: int, strict: bool = True) -> bool:
    return run(X, C0, max_iter, strict)[2]["gap"] >= GAP[X.dtype.type]


# ---------------------------------------------------------------- drawing cases


def _rng(g: torch.Generator) -> np.random.Generator:
    return np.random.default_rng(int(torch.randint(2**62, (1,), generator=g)))


def _inputs(X: np.ndarray, C0: np.ndarray, max_iter: object = 100) -> Inputs:
    args = {"X": X, "init_centroids": C0}
    if max_iter is not _OMIT:
        args["max_iter"] = max_iter
    return Inputs(args=args, show={"max_iter": 100 if max_iter is _OMIT else max_iter, "K": C0.shape[0]})


def _blobs(rng: np.random.Generator, sizes: tuple[int, ...], D: int = 2, spread: float = 0.6) -> tuple[np.ndarray, list]:
    """Points around len(sizes) centres a few units apart, in random order; also each point's blob."""
    centres = rng.uniform(-4, 4, (len(sizes), D))
    X = np.concatenate([c + spread * rng.standard_normal((n, D)) for c, n in zip(centres, sizes)])
    blob = np.repeat(np.arange(len(sizes)), sizes)
    order = rng.permutation(len(X))
    return X[order], list(blob[order])


def _drawn(make: Callable[[np.random.Generator], tuple], until: Callable[[np.ndarray, np.ndarray, int], bool] | None = None,
           dtype=np.float64, max_iter: object = 100, strict: bool = True) -> Callable[[torch.Generator], Inputs]:
    """A case drawn by make(rng) -> (X, C0), redrawn until it is safe (and until(X, C0, max_iter) holds);
    strict=False measures the gaps against the distances alone (float64 far from the origin)."""
    def draw(g: torch.Generator) -> Inputs:
        rng = _rng(g)
        steps = 100 if max_iter is _OMIT else max_iter
        for _ in range(200):
            X, C0 = make(rng)
            X, C0 = X.astype(dtype), C0.astype(dtype)
            if _safe(X, C0, steps, strict) and (until is None or until(X, C0, steps)):
                return _inputs(X, C0, max_iter)
        raise RuntimeError("no safe k-means draw found: widen the family's ranges")
    return draw


def _three_blobs_one_start(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    X, blob = _blobs(rng, (15, 15, 15))
    inside = [i for i, b in enumerate(blob) if b == 0]
    return X, X[rng.choice(inside, 3, replace=False)] + 0.05 * rng.standard_normal((3, 2))


def _truncated(X: np.ndarray, C0: np.ndarray, max_iter: int) -> bool:
    """The labels still change after max_iter rounds: a run cut short (and its final assignment) shows."""
    return run(X, C0, 100)[2]["rounds"] >= max_iter + 2


def _k_equals_n(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    X = rng.uniform(-3, 3, (6, 2))
    return X, X[rng.permutation(6)] + 0.05 * rng.standard_normal((6, 2))


def _k_one(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    X, _ = _blobs(rng, (8, 8))
    return X, rng.uniform(-5, 5, (1, 2))


def _one_d(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    X, _ = _blobs(rng, (6, 9, 7), D=1, spread=0.8)
    return X, np.sort(X[rng.choice(len(X), 3, replace=False)], axis=0)


def _far_centroid(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A centroid at (100, 100): no point is ever nearer to it, so it keeps its place."""
    X, blob = _blobs(rng, (10, 10))
    C0 = np.stack([X[blob.index(0)], np.array([100.0, 100.0]), X[blob.index(1)]])
    return X, C0


def _slow(scale: float = 1.0, offset: float = 0.0):
    """150 points spread evenly along a line, three starts at its left end: Lloyd creeps right, and late
    updates move a centroid by 0.03 while labels still change. Scaled by a power of two the run is the
    same one, exactly; moved away from the origin, the shifts fall below np.allclose's rtol·|c|."""
    def make(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        x = np.sort(rng.uniform(0, 8, 150))
        X = np.stack([x, 0.1 * rng.standard_normal(150)], axis=1)
        C0 = X[:3].copy()
        order = rng.permutation(150)
        return X[order] * scale + offset, C0 * scale + offset
    return make


def _slow_random(g: torch.Generator) -> Inputs:
    """The slow run at a random power-of-two scale (2^-17 to 4), half the time moved 4096 (scaled) from the origin:
    each kind of tolerance stop (a max move, a norm, np.allclose) falls short on some of these draws."""
    rng = _rng(g)
    scale = 2.0 ** int(rng.integers(-17, 3))
    offset = float(rng.choice([0.0, 4096.0, -4096.0], p=[0.5, 0.25, 0.25])) * scale
    return _drawn(_slow(scale, offset), _slow_enough, max_iter=300, strict=offset == 0)(g)


def _slow_enough(X: np.ndarray, C0: np.ndarray, max_iter: int) -> bool:
    """Some update before the last moves every centroid by at most 0.035 (in units of the unscaled line)."""
    facts = run(X, C0, max_iter)[2]
    unit = float(np.ptp(X[:, 0])) / 8
    return facts["converged"] and len(facts["shifts"]) >= 3 and min(facts["shifts"][:-1]) <= 0.035 * unit


def _tie_at_start(g: torch.Generator) -> Inputs:
    """(0, 0) and (0, 4) lie exactly halfway between the starts (-2, ·) and (2, ·): the lowest index, 0, takes
    them, which moves centroid 0 right; ties to the last index give other centroids."""
    X = np.array([[-4, 0], [-3, 1], [-3, -1], [0, 0], [0, 4], [3, 1], [4, 0], [3, -1], [5, 2]], dtype=np.float64)
    C0 = np.array([[-2, 0], [2, 0]], dtype=np.float64)
    order = _rng(g).permutation(len(X))
    return _inputs(X[order], C0, 100)


def _tie_three(g: torch.Generator) -> Inputs:
    """Three starts on a line, 4 apart, with points exactly halfway between each pair, for one round (max_iter 1)."""
    X = np.array([[-6, 0], [-4, 0], [-4, 1], [-2, 0], [0, 0], [2, 0], [4, 0], [4, -1], [6, 0], [9, 0]], dtype=np.float64)
    C0 = np.array([[-4, 0], [0, 0], [4, 0]], dtype=np.float64)
    order = _rng(g).permutation(len(X))
    return _inputs(X[order], C0, 1)


def _identical_init(g: torch.Generator) -> Inputs:
    """Centroids 0 and 2 start at the same place, beside a tight blob: every point of the blob ties between
    them and goes to 0, which moves into the blob; no point is ever nearer the twin left behind, so 2 stays
    empty, where it started, for the whole run."""
    rng = _rng(g)
    for _ in range(200):
        X, blob = _blobs(rng, (8, 8), spread=0.4)
        inside = X[[b == 0 for b in blob]]
        start = inside.mean(axis=0) + rng.choice([-1.0, 1.0], 2) * 1.5
        C0 = np.stack([start, X[blob.index(1)], start])
        if _twin_stays_empty(X, C0):
            return _inputs(X, C0, 100)
    raise RuntimeError("no safe draw")


def _twin_stays_empty(X: np.ndarray, C0: np.ndarray) -> bool:
    """The run without the twin (centroid 2) is safe, and after the first round every point is nearer to its
    own centroid than to the twin, by the same margin: then the twin never gets a point."""
    C, _, facts = run(X, C0[:2], 100)
    if facts["gap"] < GAP[X.dtype.type]:
        return False
    for centroids in facts["centroids"][1:] + [C]:
        _, gap = _assign(X, np.concatenate([centroids, C0[2:]]))
        if gap.min() < GAP[X.dtype.type]:
            return False
    return True


def _random(g: torch.Generator) -> Inputs:
    rng = _rng(g)
    dtype = np.float32 if rng.random() < 0.4 else np.float64
    max_iter = int(rng.choice([1, 2, 3, 5, 100, 100, 100, 300]))
    for _ in range(200):
        K = int(rng.integers(1, 6))
        N = int(rng.integers(K, 41))
        D = int(rng.integers(1, 5))
        if rng.random() < 0.5:
            sizes = tuple(int(s) for s in rng.multinomial(N - K, np.ones(K) / K) + 1)
            X, _ = _blobs(rng, sizes, D, spread=float(rng.uniform(0.3, 1.5)))
        else:
            X = rng.uniform(-3, 3, (N, D))
        if rng.random() < 0.7:  # starts on points (the usual init), nudged so no point sits on a centroid
            C0 = X[rng.choice(N, K, replace=False)] + 0.01 * rng.standard_normal((K, D))
        else:
            C0 = rng.uniform(-4, 4, (K, D))
        X, C0 = X.astype(dtype), C0.astype(dtype)
        if _safe(X, C0, max_iter):
            return _inputs(X, C0, max_iter)
    raise RuntimeError("no safe draw")


def _blobs_one_start(max_iter: object = 100, dtype=np.float64, truncated: bool = False):
    until = _truncated if truncated else None
    return _drawn(_three_blobs_one_start, until, dtype, max_iter)


FAMILIES = (
    Family("three_blobs_one_start", _blobs_one_start()),
    Family("default_max_iter", _blobs_one_start(_OMIT)),
    Family("max_iter_0", _blobs_one_start(0)),
    Family("max_iter_1", _blobs_one_start(1, truncated=True)),
    Family("max_iter_2", _blobs_one_start(2, truncated=True)),
    Family("max_iter_300", _blobs_one_start(300)),
    Family("float32", _blobs_one_start(100, np.float32)),
    Family("float32_max_iter_1", _blobs_one_start(1, np.float32, truncated=True)),
    Family("k_one", _drawn(_k_one)),
    Family("k_equals_n", _drawn(_k_equals_n)),
    Family("tie_at_start", _tie_at_start),
    Family("tie_three_one_round", _tie_three),
    Family("identical_init", _identical_init),
    Family("far_centroid", _drawn(_far_centroid)),
    Family("far_centroid_float32", _drawn(_far_centroid, dtype=np.float32)),
    Family("one_d", _drawn(_one_d)),
    Family("slow_start", _drawn(_slow(), _slow_enough, max_iter=300)),
    Family("slow_start_small", _drawn(_slow(2.0**-17), _slow_enough, max_iter=300)),
    Family("slow_start_far_from_origin", _drawn(_slow(1.0, 4096.0), _slow_enough, max_iter=300, strict=False)),
    Family("slow_start_random", _slow_random, draws=3),
    Family("random", _random, draws=85),
)


# ---------------------------------------------------------------- hooks


def call(kata: Any, entry: Any, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """The default call, and whether the returned centroids are init_centroids itself (or a view of it)."""
    outcome = default_call(kata, entry, inputs, device, track_device)
    value = outcome.value
    first = value[0] if isinstance(value, tuple) and value else None
    init = outcome.args.get("init_centroids")
    if isinstance(first, np.ndarray) and isinstance(init, np.ndarray):
        outcome.extras[NEW_ARRAY] = bool(np.shares_memory(first, init))
    return outcome


def compare(kata: Any, case: Any, expected: list[Outcome], got: Outcome) -> list[Problem]:
    """The generic comparison of (centroids, labels), the rule that centroids is a new array, and a scatter
    of the points under the first wrong value."""
    want = expected[0]
    problems = compare_outcome(kata, _SPEC, case, Outcome(want.value), Outcome(got.value))
    if got.extras.get(NEW_ARRAY):
        problems.append(Problem("rule", "centroids", tr(
            "centroids is init_centroids itself (or a view of it): the caller's array came back, changed; return a "
            "new array and leave init_centroids as it was")))
    values = [p for p in problems if p.kind in ("values", "nonfinite")]
    if values and words_wanted():
        problems = _with_scatter(case, want, got, problems, values[0])
    return problems


def _with_scatter(case: Any, want: Outcome, got: Outcome, problems: list[Problem], first: Problem) -> list[Problem]:
    from checker.specs.pictures.scatter import kmeans_scatter

    try:
        X = case.inputs.args["X"]
        exp_c, exp_l = (v.data.tolist() for v in want.value)
        got_c, got_l = (v.data.tolist() for v in got.value)
        picture = kmeans_scatter(X.tolist(), exp_l, got_l, exp_c, got_c)
    except Exception:  # noqa: BLE001 — a picture that cannot be drawn is left out, never the problem
        return problems
    # The scatter shows both items: no second picture, nor a list of the same numbers, under either.
    return [replace(p, message=p.message + "\n" + picture if p is first else p.message, expected=None, got=None,
                    mismatch=replace(p.mismatch, first=()) if p.mismatch is not None else None)
            if p.kind in ("values", "nonfinite") else p for p in problems]


class _Spec:
    """What compare_outcome reads of a spec: no hooks, the default tolerances."""


_SPEC = _Spec()


# ---------------------------------------------------------------- known mistakes


def _variant(*, ties="lowest", empty="keep", final_assignment=True, tol=None, shift="max", distance="squared",
             rounds=0, labels_dtype=None, centroids_float64=False, copy_init=True):
    """Lloyd with one switch turned. ties: "lowest" | "last"; empty: "keep" | "nan" | "zero" | "farthest"
    (moved to the point farthest from its centroid); tol: stop once the centroids move less than tol (shift:
    "max" abs, "norm", or "allclose"); rounds: -1 or +1 rounds (off by one); copy_init=False starts from
    init_centroids itself, so a run with no update returns it."""
    def kmeans(X, init_centroids, max_iter=100):
        def nearest(C):
            if distance == "manhattan":
                d = np.abs(X[:, None, :] - C[None, :, :]).sum(axis=-1)
            else:
                d = ((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=-1)
            if ties == "last":
                return d.shape[1] - 1 - np.argmin(d[:, ::-1], axis=1)
            return np.argmin(d, axis=1)

        if centroids_float64:
            C = init_centroids.astype(np.float64)
        else:
            C = init_centroids.copy() if copy_init else init_centroids
        labels = nearest(C)
        previous = None
        for _ in range(max(max_iter + rounds, 0)):
            labels = nearest(C)
            if previous is not None and np.array_equal(labels, previous):
                break
            new = C.copy()
            for k in range(C.shape[0]):
                members = X[labels == k]
                if len(members):
                    new[k] = members.mean(axis=0)
                elif empty == "nan":
                    new[k] = np.nan
                elif empty == "zero":
                    new[k] = 0.0
                elif empty == "farthest":
                    new[k] = X[np.argmax(((X - C[labels]) ** 2).sum(axis=1))]
            old, C, previous = C, new, labels
            if tol is not None:
                if shift == "allclose":
                    if np.allclose(C, old):
                        break
                elif (np.abs(C - old).max() if shift == "max" else np.linalg.norm(C - old)) < tol:
                    break
        if final_assignment:
            labels = nearest(C)
        if labels_dtype is not None:
            labels = labels.astype(labels_dtype)
        return C, labels
    return kmeans


def _in_place(X, init_centroids, max_iter=100):
    centroids = init_centroids
    labels = None
    for it in range(max_iter):
        new_labels = np.argmin(((X[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=-1), axis=1)
        if labels is not None and np.array_equal(new_labels, labels):
            break
        labels = new_labels
        for k in range(centroids.shape[0]):
            if (labels == k).any():
                centroids[k] = X[labels == k].mean(axis=0)
    labels = np.argmin(((X[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=-1), axis=1)
    return centroids, labels


def _labels_float(X, init_centroids, max_iter=100):
    C = init_centroids.copy()
    labels = None
    for it in range(max_iter + 1):
        new = np.zeros(X.shape[0])
        for i in range(X.shape[0]):
            new[i] = np.argmin(((C - X[i]) ** 2).sum(axis=1))
        if it == max_iter or (labels is not None and np.array_equal(new, labels)):
            return C, new
        labels = new
        for k in range(C.shape[0]):
            if (labels == k).any():
                C[k] = X[labels == k].mean(axis=0)
    return C, labels


MISTAKES = (
    Mistake("init_in_place", _in_place),
    Mistake("init_returned_uncopied", _variant(copy_init=False)),
    Mistake("ties_to_last", _variant(ties="last")),
    Mistake("empty_nan", _variant(empty="nan")),
    Mistake("empty_zero", _variant(empty="zero")),
    Mistake("empty_farthest_point", _variant(empty="farthest")),
    Mistake("stale_labels", _variant(final_assignment=False)),
    Mistake("tolerance_stop", _variant(tol=1e-4), "max_1e4"),
    Mistake("tolerance_stop", _variant(tol=1e-4, shift="norm"), "norm_1e4"),
    Mistake("tolerance_stop", _variant(tol=1e-6), "max_1e6"),
    Mistake("tolerance_stop", _variant(tol=1e-3), "max_1e3"),
    Mistake("tolerance_stop", _variant(tol=1e-2), "max_1e2"),
    Mistake("tolerance_stop", _variant(tol=0.05, shift="norm"), "norm_005"),
    Mistake("tolerance_stop", _variant(tol=0.0, shift="allclose"), "allclose"),
    Mistake("manhattan", _variant(distance="manhattan")),
    Mistake("one_round_short", _variant(rounds=-1)),
    Mistake("one_round_extra", _variant(rounds=1)),
    Mistake("labels_int32", _variant(labels_dtype="int32")),
    Mistake("labels_float", _labels_float),
    Mistake("centroids_float64", _variant(centroids_float64=True)),
)


def _bench(g: torch.Generator) -> Inputs:
    rng = _rng(g)
    X = rng.standard_normal((20000, 16))
    return Inputs(args={"X": X, "init_centroids": X[rng.choice(20000, 32, replace=False)].copy(), "max_iter": 20})


# `kata check kmeans --bench`: 20k points in 16 dims, 32 clusters, 20 rounds.
BENCH = ("X [20000, 16], K = 32, max_iter 20", _bench)
