"""Case families for `top-p`: top_k alone, top_p alone, both (where their order and the
renormalisation matter), top_p = 1.0 with probabilities that underflow, ties at either cut,
-inf entries, huge logits, rows of different scales, V = 1 and 32000, half precision.

Several answers are right where logits tie at a cut (KATAS.md, "Comparison rules"): the `compare`
hook below judges each row by the rule instead of by equality. Every drawn top_p sits at least
1e-3 (half precision: 2e-2) away from every partial sum of the sorted, renormalised
probabilities, so rounding can never move the cut; the exact-boundary cases use powers of two,
which every way of computing a softmax of equal logits gets exactly.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Callable

import numpy as np
import torch

from checker.judge.compare import SMALL, compare_values, split_outputs, words_wanted
from checker.text.i18n import tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _training
from checker.specs._training import HALF, pick, randint, randn, uniform

INF = float("-inf")


def margin_for(dtype: torch.dtype) -> float:
    return 2e-2 if dtype in HALF else 1e-3


# ---------------------------------------------------------------- the cut, in float64
# NumPy, not torch: these run in the parent for every case, where torch's threaded kernels only
# add start-up cost to arrays this small.


def _descending(logits: torch.Tensor) -> np.ndarray:
    """(B, V) float64, each row sorted largest first (-inf entries last)."""
    return -np.sort(-logits.double().numpy(), axis=-1)


def _prefix_sums(v: np.ndarray) -> np.ndarray:
    """Prefix sums of the softmax of rows sorted largest first (the first entry of a row is finite)."""
    e = np.exp(v - v[:, :1])
    return np.cumsum(e, axis=-1) / e.sum(axis=-1, keepdims=True)


def _top_k_keeps(v: np.ndarray, top_k: int) -> list[np.ndarray]:
    """(B,) how many tokens top_k keeps per row, for each convention: exactly top_k, or every tie with the k-th."""
    V = v.shape[-1]
    if top_k == 0 or top_k >= V:
        return [np.full(v.shape[0], V)]
    return [np.full(v.shape[0], top_k), (v >= v[:, top_k - 1:top_k]).sum(axis=-1)]


def partial_sums(logits: torch.Tensor, top_k: int) -> np.ndarray:
    """Every prefix sum of every row's sorted renormalised probabilities, under both top-k tie
    conventions (a prefix sum of sorted values does not depend on how ties are ordered)."""
    v = _descending(logits)
    position = np.arange(v.shape[-1])
    return np.concatenate([_prefix_sums(np.where(position < m[:, None], v, -np.inf)).ravel()
                           for m in _top_k_keeps(v, top_k)])


def cut_sizes(row: torch.Tensor, top_k: int, top_p: float) -> set[int]:
    """The sizes of the kept set the four tie conventions give for one row (KATAS.md), counted
    over its finite entries."""
    v = _descending(row[None])
    v = v[:, np.isfinite(v[0])]
    sizes = set()
    for m in _top_k_keeps(v, top_k):
        m = int(m[0])
        if top_p >= 1.0:
            sizes.add(m)
            continue
        S = _prefix_sums(v[:, :m])[0]
        n = min(int((S < top_p).sum()) + 1, m)  # the smallest n whose n largest reach top_p
        sizes |= {n, int((v[0, :m] >= v[0, n - 1]).sum())}  # exactly n, or every token tied with the n-th
    return sizes


def safe_top_p(g: torch.Generator, logits: torch.Tensor, top_k: int, low: float = 0.02, high: float = 0.98
               ) -> float | None:
    """A top_p drawn uniformly from [low, high] minus a margin around every partial sum; None if none is left."""
    margin = margin_for(logits.dtype)
    s = np.sort(partial_sums(logits, top_k))
    s = s[(s > low - margin) & (s < high + margin)]
    starts = np.maximum(np.concatenate([[low], s + margin]), low)  # the free gaps between sums
    ends = np.minimum(np.concatenate([s - margin, [high]]), high)
    lengths = np.maximum(ends - starts, 0.0)
    total = float(lengths.sum())
    if total <= 0:
        return None
    u = uniform(g, 0.0, total)
    i = min(int((np.cumsum(lengths) < u).sum()), len(lengths) - 1)  # the gap u falls in
    return float(starts[i] + u - lengths[:i].sum())


def _is_safe(logits: torch.Tensor, top_k: int, top_p: float) -> bool:
    if top_p >= 1.0 or top_p <= 1e-5:
        return True  # off, or below every token's probability: the argmax alone
    return bool((np.abs(partial_sums(logits, top_k) - top_p) >= margin_for(logits.dtype)).all())


# ---------------------------------------------------------------- drawing cases


_OMIT = object()  # leave the argument out of the call, so its default is used


def _inputs(logits: torch.Tensor, top_k: object, top_p: object) -> Inputs:
    args, show = {"logits": logits}, {}
    if top_k is not _OMIT:
        args["top_k"] = show["top_k"] = top_k
    if top_p is not _OMIT:
        args["top_p"] = show["top_p"] = top_p
    return Inputs(args=args, show=show)


def _grid(g: torch.Generator, B: int, V: int, dtype: torch.dtype) -> torch.Tensor:
    """Distinct logits on a grid of 1/16 in [-5, 5]: exact in bfloat16 and float16, and far
    enough apart that their probabilities stay ordered after rounding."""
    steps = torch.stack([torch.randperm(161, generator=g)[:V] for _ in range(B)])  # (B, V) distinct per row
    return ((steps - 80).double() / 16).to(dtype)


def _draw(B: int, V: int, *, top_k: object = 0, top_p: object = "safe", scale: float = 2.0,
          dtype: torch.dtype = torch.float32, banned: float = 0.0, until: Callable | None = None) -> Callable:
    """top_p: a number (kept at a safe distance by redrawing the logits), "safe" (drawn), or _OMIT;
    banned: the fraction of entries already -inf (every row keeps a finite one);
    until(inputs) -> bool: redraw until the case shows what it is about."""
    def make(g: torch.Generator) -> Inputs:
        for _ in range(500):
            if dtype in HALF:
                logits = _grid(g, B, V, dtype)
            else:
                logits = randn(g, B, V, dtype=dtype, scale=scale)
            if banned:
                ban = torch.rand(B, V, generator=g) < banned
                ban[torch.arange(B), torch.randint(V, (B,), generator=g)] = False
                logits = logits.masked_fill(ban, INF)
            k = 0 if top_k is _OMIT else top_k
            p = safe_top_p(g, logits, k) if top_p == "safe" else top_p
            if p is None or (isinstance(p, float) and not _is_safe(logits, k, p)):
                continue
            inputs = _inputs(logits, top_k, p)
            if until is None or until(inputs):
                return inputs
        raise RuntimeError("no safe draw found: widen the family's ranges")
    return make


def _rows(rows: list[list[float]], top_k: object, top_p: object, dtype: torch.dtype = torch.float32) -> Callable:
    """A hand-made case: the given rows (shuffled per row, so position says nothing)."""
    def make(g: torch.Generator) -> Inputs:
        logits = torch.tensor(rows, dtype=torch.float64)
        order = torch.stack([torch.randperm(logits.size(1), generator=g) for _ in range(logits.size(0))])
        return _inputs(logits.gather(1, order).to(dtype), top_k, top_p)
    return make


def _differs_from(mistake_key: str) -> Callable[[Inputs], bool]:
    """True when the named mistake gives a different answer on these inputs."""
    def differs(inputs: Inputs) -> bool:
        fn = next(m.fn for m in MISTAKES if m.key == mistake_key)
        right, wrong = _reference_like(**inputs.args), fn(**inputs.args)
        return not torch.equal(right, wrong)
    return differs


def _reference_like(logits, top_k=0, top_p=1.0):
    return _variant()(logits, top_k, top_p)


def _ties_at_crossing(g: torch.Generator) -> Inputs:
    """Three equal logits where top-p crosses: top_p sits between the partial sums through the
    first and the second of them, so 2 (exactly n*) or 4 (every tie) tokens are right."""
    row = torch.tensor([2.0, 1.0, 1.0, 1.0, 0.0, -1.0, -2.0], dtype=torch.float64)
    S = torch.softmax(row, 0).cumsum(0)
    top_p = float((S[0] + S[1]) / 2)
    return _rows([row.tolist(), (row - 3).tolist()], 0, top_p)(g)


def _ties_at_kth_then_top_p(g: torch.Generator) -> Inputs:
    """Ties at the k-th place, then top-p over the survivors: keeping exactly top_k = 3 tokens or
    all 5 that reach the k-th logit renormalises differently; top_p is safe for both (1, 3 or 5
    tokens are right)."""
    row = [3.0, 1.0, 1.0, 1.0, 1.0, -1.0, -2.0]
    # Keeping 3: p = .787, .107, .107, so 0.76 needs the first token alone. Keeping all 5 ties:
    # p = .649, .088 (x4), partial sums .649, .737, .825: 0.76 needs 3 tokens, or all 5 tied ones.
    return _rows([row], 3, 0.76)(g)


def _underflow(top_k: int):
    """top_p = 1.0 (off) on rows whose smallest probabilities are 0 or far below float32's
    rounding of the running total: nothing may be removed beyond top_k. With top_k, the k-th
    probability stays > 0 so top-k by probability and by logit agree."""
    def make(g: torch.Generator) -> Inputs:
        if top_k:
            rows = [[0.0, -25.0, -26.0, -27.0, -28.0, -200.0, -210.0, -300.0],
                    [5.0, -30.0, -31.0, -32.0, -33.0, -150.0, -160.0, -170.0]]
        else:
            rows = [[0.0, -150.0, -200.0, -300.0, -1000.0, -1e4], [0.0, -0.5, -30.0, -120.0, -130.0, -140.0]]
        return _rows(rows, top_k, 1.0)(g)
    return make


def _scales(g: torch.Generator) -> Inputs:
    """Rows of very different scales in one batch: one threshold for the whole batch is wrong."""
    for _ in range(500):
        logits = randn(g, 4, 12, dtype=torch.float64) * torch.tensor([[0.01], [1.0], [10.0], [100.0]])
        logits = logits.float()
        top_p = safe_top_p(g, logits, 0, low=0.3, high=0.9)
        if top_p is not None:
            return _inputs(logits, 0, top_p)
    raise RuntimeError("no safe draw")


def _dominant(g: torch.Generator) -> Inputs:
    """V = 32000 with ten tokens far above the rest: top-p lands among them."""
    for _ in range(100):
        logits = randn(g, 2, 32000)
        top = torch.randperm(32000, generator=g)[:10]
        logits[:, top] += 15 + randn(g, 2, 10)
        top_p = safe_top_p(g, logits, 0, low=0.2, high=0.95)
        if top_p is not None:
            return _inputs(logits, 0, top_p)
    raise RuntimeError("no safe draw")


def _random(kind: str):
    def make(g: torch.Generator) -> Inputs:
        B, V = randint(g, 1, 6), randint(g, 1, 60)
        dtype = pick(g, list(HALF)) if kind == "half" else torch.float32
        k = pick(g, [0, 0, 0, 1, 3, 10, V, V + 5, randint(g, 1, V)])
        which = pick(g, ["safe", "safe", "safe", 1.0, 1e-6])
        banned = pick(g, [0.0, 0.0, 0.3])
        for _ in range(500):
            if kind == "half":
                logits = _grid(g, B, V, dtype)
            elif kind == "ties":  # logits on a grid of 1/2: many ties
                logits = (torch.randint(-6, 5, (B, V), generator=g).double() / 2).float()
            else:
                logits = randn(g, B, V, scale=pick(g, [0.5, 1.0, 2.0, 5.0]))
            if banned:
                ban = torch.rand(B, V, generator=g) < banned
                ban[torch.arange(B), torch.randint(V, (B,), generator=g)] = False
                logits = logits.masked_fill(ban, INF)
            top_p = safe_top_p(g, logits, k, low=0.05, high=0.99) if which == "safe" else which
            if top_p is not None:
                return _inputs(logits, k, top_p)
        return _inputs(logits, k, 1.0)  # nowhere safe for top_p: top-k alone
    return make


EQUAL4, EQUAL8 = [[0.0] * 4, [0.0] * 4], [[0.0] * 8]

FAMILIES = (
    Family("defaults", _draw(3, 12, top_k=_OMIT, top_p=_OMIT)),
    Family("nothing_removed", _draw(3, 12, top_k=0, top_p=1.0)),
    Family("top_k_one", _draw(4, 20, top_k=1, top_p=1.0)),
    Family("top_k_middle", _draw(4, 20, top_k=5, top_p=1.0)),
    Family("top_k_equals_v", _draw(3, 12, top_k=12, top_p=1.0)),
    Family("top_k_above_v", _draw(3, 12, top_k=19, top_p=1.0)),
    Family("top_p_middle", _draw(4, 20, top_p=0.9, scale=1.5)),
    Family("top_p_half", _draw(4, 20, top_p=0.5, scale=1.5)),
    Family("top_p_tiny", _draw(4, 20, top_p=1e-6)),
    Family("peaked_row", _rows([[9.0, 1.0, 0.5, 0.0, -1.0, -2.0], [12.0, 2.0, 1.0, 0.0, 0.0, -5.0]], 0, 0.8)),
    Family("top_p_one_underflow", _underflow(0)),
    Family("top_p_one_underflow_top_k", _underflow(5)),
    Family("top_k_then_top_p", _draw(4, 16, top_k=6, top_p="safe", until=_differs_from("top_p_over_all_tokens")),
           draws=3),
    Family("ties_at_kth", _rows([[3.0, 2.0, 1.0, 1.0, 1.0, 0.0, -1.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0]], 3, 1.0)),
    Family("ties_at_kth_then_top_p", _ties_at_kth_then_top_p),
    Family("ties_at_crossing", _ties_at_crossing),
    Family("four_equal_half", _rows(EQUAL4, 0, 0.5)),
    Family("four_equal_quarter", _rows(EQUAL4, 0, 0.25)),
    Family("eight_equal_quarter", _rows(EQUAL8, 0, 0.25)),
    Family("neg_inf_entries", _draw(4, 12, top_k=11, top_p=1.0, banned=0.5)),
    Family("neg_inf_entries_top_p", _draw(4, 12, top_k=0, top_p="safe", banned=0.4)),
    Family("one_finite_entry", _rows([[0.5, INF, INF, INF, INF], [INF, INF, -3.0, INF, INF]], 3, 0.5)),
    Family("huge_logits", _draw(3, 10, top_k=4, top_p="safe", scale=1e4)),
    Family("huge_logits_top_p", _rows([[1e4, 1e4 - 1, 1e4 - 2, 1e4 - 50, -1e4],
                                       [-1e4, -1e4 + 0.5, -1e4 - 3, -1e4 - 9, -1e4 - 30]], 0, 0.7)),
    Family("rows_of_different_scales", _scales),
    Family("vocab_one", _rows([[0.3], [-2.0]], 1, 0.5)),
    Family("vocab_one_top_k_off", _rows([[1.5]], 0, 0.01)),
    Family("vocab_32000", _draw(2, 32000, top_k=50, top_p="safe")),
    Family("vocab_32000_top_p", _dominant),
    Family("float64", _draw(4, 20, top_k=8, top_p="safe", dtype=torch.float64)),
    Family("float16", _draw(4, 24, top_k=10, top_p="safe", dtype=torch.float16)),
    Family("bfloat16", _draw(4, 24, top_k=10, top_p="safe", dtype=torch.bfloat16)),
    Family("bfloat16_top_p", _draw(4, 24, top_k=0, top_p="safe", dtype=torch.bfloat16)),
    Family("random", _random("float32"), draws=50),
    Family("random_ties", _random("ties"), draws=20),
    Family("random_half", _random("half"), draws=12),
    Family("device", _draw(3, 12, top_k=5, top_p="safe"), track_device=True),
    Family("device_defaults", _draw(3, 12, top_k=_OMIT, top_p=_OMIT), track_device=True),
)
FAMILIES = _training.single_threaded(FAMILIES)


# ---------------------------------------------------------------- hooks

expected = _training.expected


def compare(kata, case, expected, got) -> list[Problem]:
    """KATAS.md's rule, row by row on the finite inputs: each entry is its input logit or -inf,
    the kept set is closed upwards, and its size is one the four tie conventions give."""
    with _training.one_thread():
        return _judge(kata, case, expected, got)


def _judge(kata, case, expected, got) -> list[Problem]:
    want, _ = split_outputs(kata, expected[0].value)
    have, problems = split_outputs(kata, got.value)
    if have is None:
        return problems
    item = kata.outputs[0]
    exp, out = want[item], have[item]
    problems = compare_values(item, _structure_only(exp), out, 0.0, 0.0)
    if problems or out.data is None:
        return problems
    if torch.equal(out.data, exp.data):
        return []  # the reference's own answer: no need to judge row by row
    x, y = case.inputs.args["logits"].double(), out.data.double()
    top_k, top_p = case.inputs.args.get("top_k", 0), case.inputs.args.get("top_p", 1.0)
    bad_rows = [(b, p) for b in range(x.size(0)) if (p := _row_problem(x[b], y[b], b, top_k, top_p, out.dtype))]
    if not bad_rows:
        return []
    small = x.numel() <= SMALL
    b = bad_rows[0][0]  # the first row said in full: with its cut drawn when the count is what differs
    first = _row_problem(x[b], y[b], b, top_k, top_p, out.dtype, exp.data[b].double())
    problems = [Problem("rule", item, first, expected=exp.data.tolist() if small else None,
                        got=out.data.tolist() if small else None)]
    problems += [Problem("rule", item, p) for _, p in bad_rows[1:3]]
    if len(bad_rows) > 3:
        problems.append(Problem("rule", item, tr("… and {n} more rows like these", n=len(bad_rows) - 3)))
    return problems


def _structure_only(value):
    """The expected output without its values: compare_values then checks type, shape, dtype and device only."""
    return replace(value, data=None)


def _row_problem(x: torch.Tensor, y: torch.Tensor, row: int, top_k: int, top_p: float, dtype: str,
                 expected_row: torch.Tensor | None = None) -> str | None:
    changed = ~((y == x) | (y == INF))  # NaN counts as changed
    if changed.any():
        col = int(changed.nonzero()[0])
        n = int(changed.sum())
        removed_by_number = changed & torch.isfinite(x) & (y <= -1e4) & (y < x)
        if bool(removed_by_number[changed].all()):
            return tr("row {row}: removed entries must be exactly -inf, not {value} (a large negative number "
                      "still gets a probability, and can be sampled when everything else is removed too)",
                      row=row, value=f"{float(y[col]):.6g}")
        finite = torch.isfinite(y)
        if bool(finite.all()) and bool(((y >= 0) & (y <= 1)).all()) and abs(float(y.sum()) - 1) < 1e-2:
            return tr("row {row} holds probabilities (it sums to 1): return the filtered logits, kept values "
                      "unchanged and the rest -inf", row=row)
        return tr("row {row}: {n} entries are neither the input logit nor -inf, first at column {col} "
                  "(input {x}, yours {y}): keep each logit exactly as it is, or set it to -inf",
                  row=row, n=n, col=col, x=f"{float(x[col]):.6g}", y=f"{float(y[col]):.6g}")
    finite = torch.isfinite(x)
    kept, removed = finite & (y == x), finite & (y == INF)
    if kept.any() and removed.any():
        low = int(torch.where(kept, x, math.inf).argmin())
        high = int(torch.where(removed, x, -math.inf).argmax())
        if x[high] > x[low]:
            return tr("row {row}: the logit {high_value} at column {high} was removed but the smaller {low_value} "
                      "at column {low} was kept: the kept tokens must be the most likely ones",
                      row=row, high=high, low=low, high_value=f"{float(x[high]):.6g}", low_value=f"{float(x[low]):.6g}")
    n = int(kept.sum())
    sizes = sorted(cut_sizes(x, top_k, top_p))
    if n in sizes:
        return None
    if len(sizes) == 1:
        said = tr("row {row}: {n} tokens kept, expected {want}", row=row, n=n, want=sizes[0])
        if expected_row is None or top_p >= 1.0 or not words_wanted():
            return said
        from checker.specs.pictures.nucleus import nucleus_picture  # the cut, sorted, with the crossing token marked

        finite_x = [float(v) for v in x.tolist()]
        want_kept = [bool(k) for k in (torch.isfinite(x) & (expected_row == x)).tolist()]
        return said + "\n" + nucleus_picture(finite_x, want_kept, [bool(k) for k in kept.tolist()], top_k, top_p)
    return tr("row {row}: {n} tokens kept, expected {want} (logits tie at the cut: keep every tied token, or "
              "exactly as many as the rule needs)", row=row, n=n, want=tr(" or ").join(str(s) for s in sizes))


# ---------------------------------------------------------------- known mistakes


def _variant(*, order="k_then_p", on="probabilities", boundary="reaches", fill="-inf",
             returns="logits", top_p_one_is_off=True, keep_first=True, descending=True):
    """boundary: "reaches" (right: remove where the mass before a token reaches top_p), "exceeds"
    (cumsum > top_p) or "reaches_cum" (cumsum >= top_p), with or without the first token kept
    (keep_first), or "keeps one more"; descending=False sorts the wrong way up."""
    def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
        x = logits.clone()
        V = x.size(-1)
        value = torch.finfo(x.dtype).min if fill == "finfo.min" else INF

        def by_k(x):
            if 0 < top_k < V:
                kth = torch.topk(x, top_k, dim=-1).values[:, -1:]
                x = x.masked_fill(x < kth, value)
            return x

        def by_p(x, p=None):
            if top_p >= 1.0 and top_p_one_is_off:
                return x
            if p is None:
                half = x.dtype in HALF
                p = torch.softmax(x.float() if half else x, -1) if on == "probabilities" else x
            sp, order_ = p.sort(dim=-1, descending=descending)
            cum = sp.cumsum(-1)
            if boundary == "reaches":
                remove = cum - sp >= top_p
            elif boundary in ("exceeds", "reaches_cum"):  # the token that crosses top_p is dropped
                remove = cum > top_p if boundary == "exceeds" else cum >= top_p
                if keep_first:
                    remove[..., 0] = False
            else:  # "keeps one more": cum > top_p shifted right by one
                remove = cum - sp > top_p
            remove = remove.scatter(-1, order_, remove)
            return x.masked_fill(remove, value)

        if order == "p_then_k":
            x = by_k(by_p(x))
        elif order == "k_then_p_unnormalised":  # top-p after top-k, measured with the softmax of every logit
            kept = by_k(x)
            full = torch.softmax(x.float() if x.dtype in HALF else x, -1)
            x = by_p(kept, full.masked_fill(kept == value, 0.0))
        else:
            x = by_p(by_k(x))
        return torch.softmax(x.float(), -1).to(x.dtype) if returns == "probabilities" else x
    return top_k_top_p_filter


MISTAKES = (
    Mistake("crossing_token_dropped", _variant(boundary="exceeds")),
    Mistake("crossing_token_dropped_at_reach", _variant(boundary="reaches_cum")),
    Mistake("crossing_token_dropped_no_first", _variant(boundary="exceeds", keep_first=False)),
    Mistake("crossing_token_dropped_at_reach_no_first", _variant(boundary="reaches_cum", keep_first=False)),
    Mistake("ascending_sort", _variant(descending=False)),
    Mistake("keeps_one_more_at_equality", _variant(boundary="keeps one more")),
    # Top-p before top-k, and top-p after top-k without renormalising, keep the same tokens but where tokens tie at
    # the k-th logit (both cut the sorted row at the shorter of the two prefixes the full distribution gives): two
    # writings of one mistake, one key.
    Mistake("top_p_over_all_tokens", _variant(order="p_then_k")),
    Mistake("top_p_over_all_tokens", _variant(order="k_then_p_unnormalised")),
    Mistake("filters_logits_not_probabilities", _variant(on="logits")),
    Mistake("returns_probabilities", _variant(returns="probabilities")),
    Mistake("finfo_min_not_inf", _variant(fill="finfo.min")),
    Mistake("top_p_one_still_filters", _variant(top_p_one_is_off=False)),
)


def _bench(g: torch.Generator) -> Inputs:
    return Inputs(args={"logits": torch.randn(64, 32000, generator=g) * 3, "top_k": 50, "top_p": 0.9})


# `kata check top-p --bench`: one decoding step of 64 sequences over a 32k vocabulary.
BENCH = ("B = 64 rows, V = 32000, top_k 50, top_p 0.9", _bench)
