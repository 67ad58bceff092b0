"""Case families for `roc-auc` (NumPy): the Mann–Whitney AUC with ties counting ½, and GAUC over groups.

Tied scores are built from small integers (or halves), so every order of operations sees the tie exactly.
A wrong value is reported with the pair counts behind the expected AUC (won, tied, lost out of n_pos·n_neg)
and what the learner's value amounts to in pairs; a wrong GAUC with the table of groups.
"""
from __future__ import annotations

import sys

import numpy as np
import torch

from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome, float_of, is_float_scalar
from checker.text.i18n import tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._rl import pick, randint

_GROUP_ROWS = 8  # groups the GAUC table shows


def _scores(g: torch.Generator, y: np.ndarray, ties: int | None, dtype=np.float64, signal: float = 1.0) -> np.ndarray:
    """Scores that lean towards the positives (AUC ≈ 0.75): distinct normals, or `ties` distinct levels
    (halves of small integers, exact in any dtype; integers for an integer dtype)."""
    u = torch.randn(len(y), generator=g, dtype=torch.float64).numpy() + signal * np.asarray(y, dtype=np.float64)
    if ties is None:
        return u.astype(dtype)
    levels = np.clip(np.floor((u + 2.0) * ties / 5.0), 0, ties - 1)
    return (levels / 2 if np.dtype(dtype).kind == "f" else levels).astype(dtype)


def _labels(g: torch.Generator, N: int, p: float = 0.4, kind: str = "int") -> np.ndarray:
    """0/1 labels with both classes present (the first two are 1 and 0 when the draw missed one)."""
    y = (torch.rand(N, generator=g, dtype=torch.float64) < p).numpy().astype(np.int64)
    if N >= 2 and (y.all() or not y.any()):
        y[0], y[1] = 1, 0
    return _as_kind(y, kind)


def _as_kind(y: np.ndarray, kind: str) -> np.ndarray:
    return {"int": y.astype(np.int64), "bool": y.astype(bool), "float": y.astype(np.float64),
            "float32": y.astype(np.float32)}[kind]


def _args(y, s, groups=None, *, raises: dict | None = None) -> Inputs:
    """raises: what makes the call impossible ({"positives": 0, …}): the case then demands a ValueError."""
    args = {"y_true": y, "y_score": s} if groups is None else {"y_true": y, "y_score": s, "groups": groups}
    if raises is not None:
        return Inputs(args=args, raises="ValueError", show=raises)
    return Inputs(args=args)


def _plain(N: int, ties: int | None = None, *, p: float = 0.4, labels: str = "int", dtype=np.float64):
    def make(g: torch.Generator) -> Inputs:
        y = _labels(g, N, p, labels)
        return _args(y, _scores(g, y, ties, dtype))
    return make


def _ordered(kind: str):
    def make(g: torch.Generator) -> Inputs:
        y = _labels(g, 12)
        s = _scores(g, y, None)
        if kind == "equal":
            s = np.full(12, 0.25)
        else:
            order = np.argsort(y if kind == "perfect" else -y, kind="stable")  # negatives first (perfect) or last
            ranked = np.empty_like(s)
            ranked[order] = np.sort(s)  # the k-th of `order` gets the k-th smallest score
            s = ranked
        return _args(y, s)
    return make


def _two_tied(g: torch.Generator) -> Inputs:
    return _args(np.array([1, 0]), np.array([0.5, 0.5]))


def _one_class(label: int):
    def make(g: torch.Generator) -> Inputs:
        N = 6
        return _args(np.full(N, label), _scores(g, np.zeros(N), None),
                     raises={"positives": N * label, "negatives": N * (1 - label)})
    return make


def _group_ids(kind: str, n_groups: int) -> list:
    ints = [7, 3, 42, 1001, 15, 8, 99, 23]
    names = ["u_anna", "u_bo", "u_chen", "u_dev", "u_eli", "u_fei", "u_gus", "u_hao"]
    return (ints if kind == "int" else names)[:n_groups]


def _grouped(kind: str = "int", n_groups: int = 5, *, single_class: int = 0, ties: int | None = None,
             interleave: bool = True, labels: str = "int"):
    """n_groups groups of different sizes (3 to 14 impressions), the first `single_class` of them one class only;
    ids interleaved in the arrays unless told otherwise."""
    def make(g: torch.Generator) -> Inputs:
        ids, ys, ss = [], [], []
        for k, gid in enumerate(_group_ids(kind, n_groups)):
            n = randint(g, 3, 14)
            y = (torch.rand(n, generator=g, dtype=torch.float64) < pick(g, [0.2, 0.4, 0.6])).numpy().astype(np.int64)
            if k < single_class:
                y[:] = k % 2
            elif y.all() or not y.any():
                y[0], y[1] = 1, 0
            ids += [gid] * n
            ys.append(y)
            ss.append(_scores(g, y, ties, signal=pick(g, [0.0, 1.0, 2.0])))
        y, s = np.concatenate(ys), np.concatenate(ss)
        groups = np.array(ids)
        if interleave:
            order = torch.randperm(len(y), generator=g).numpy()
            y, s, groups = y[order], s[order], groups[order]
        valid = n_groups > single_class
        if not valid:
            return _args(_as_kind(y, labels), s, groups, raises={"two_class_groups": 0})
        return _args(_as_kind(y, labels), s, groups)
    return make


def _one_group(g: torch.Generator) -> Inputs:
    N = 20
    y = _labels(g, N)
    return _args(y, _scores(g, y, 5), np.full(N, 5))


def _random(g: torch.Generator) -> Inputs:
    if pick(g, [False, False, True]):
        return _grouped(pick(g, ["int", "str"]), randint(g, 1, 8), single_class=pick(g, [0, 0, 1, 2]),
                        ties=pick(g, [None, 3, 6]), labels=pick(g, ["int", "bool", "float"]))(g)
    N = randint(g, 2, 300)
    dtype = pick(g, [np.float64, np.float64, np.float32, np.int64])
    ties = pick(g, [None, None, 2, 4, 10, 40]) if np.dtype(dtype).kind == "f" else pick(g, [3, 10, 40])
    return _plain(N, ties, p=pick(g, [0.05, 0.3, 0.5, 0.8]), labels=pick(g, ["int", "int", "bool", "float"]),
                  dtype=dtype)(g)


FAMILIES = (  # GAUC early: the namer examines the first failing families, and a GAUC slip must be among them
    Family("no_ties", _plain(30)),
    Family("many_ties", _plain(40, 4)),
    Family("all_equal", _ordered("equal")),
    Family("perfect", _ordered("perfect")),
    Family("inverted", _ordered("inverted")),
    Family("two_tied", _two_tied),
    Family("only_positives", _one_class(1)),
    Family("only_negatives", _one_class(0)),
    Family("gauc_int_ids", _grouped("int")),
    Family("gauc_string_ids", _grouped("str")),
    Family("gauc_single_class_groups", _grouped("int", 6, single_class=2)),
    Family("gauc_string_single_class", _grouped("str", 5, single_class=1, ties=3)),
    Family("gauc_ties", _grouped("int", 4, ties=3, labels="bool")),
    Family("gauc_contiguous", _grouped("int", 4, interleave=False)),
    Family("gauc_one_group", _one_group),
    Family("gauc_no_valid_group", _grouped("int", 3, single_class=3)),
    Family("bool_labels", _plain(25, 6, labels="bool")),
    Family("float_labels", _plain(25, 6, labels="float")),
    Family("float32_scores", _plain(30, 8, dtype=np.float32)),
    Family("integer_scores", _plain(30, 6, dtype=np.int64)),
    Family("one_positive", _plain(15, 5, p=0.0)),
    Family("large_with_ties", _plain(2000, 50)),
    Family("random", _random, draws=80),
)


# ---------------------------------------------------------------- how a result is judged


def tolerance_for(case, item: str, dtype: torch.dtype, expected):
    """The tolerance of the least precise float input (float32 labels or scores: float32's), else float64's."""
    floats = [v.dtype for k, v in case.inputs.args.items() if k != "groups" and getattr(v, "dtype", None) is not None
              and v.dtype.kind == "f"]
    table = spec_api.TOLERANCES
    return table[torch.float32] if np.dtype(np.float32) in floats else table[torch.float64]


def pair_counts(y_true, y_score) -> tuple[int, int, int, int, int]:
    """(n_pos, n_neg, won, tied, lost) over the (positive, negative) pairs."""
    y = np.asarray(y_true).astype(bool)
    s = np.asarray(y_score)
    pos, neg = s[y], s[~y]
    won = int(np.count_nonzero(pos[:, None] > neg[None, :]))
    tied = int(np.count_nonzero(pos[:, None] == neg[None, :]))
    return pos.size, neg.size, won, tied, pos.size * neg.size - won - tied


def compare(kata, case, expected, got):
    """The generic comparison; a wrong AUC then gets its pair counts, a wrong GAUC its table of groups."""
    if case.inputs.raises is not None:
        return None
    problems = compare_outcome(kata, sys.modules[__name__], case, expected[0], got)
    if not problems or problems[0].kind != "values" or not is_float_scalar(got.value):
        return problems
    value = float_of(got.value)
    args = case.inputs.args
    if args.get("groups") is None:
        lines = _pairs_lines(args["y_true"], args["y_score"], value)
    else:
        lines = _groups_lines(args["y_true"], args["y_score"], args["groups"], value)
    first = problems[0]
    return [Problem(first.kind, first.item, first.message + "\n" + "\n".join(lines), first.mismatch)] + problems[1:]


def _pairs_lines(y_true, y_score, value: float) -> list[str]:
    n_pos, n_neg, won, tied, lost = pair_counts(y_true, y_score)
    total = n_pos * n_neg
    return [
        tr("{n_pos} positives × {n_neg} negatives = {total} pairs: {won} won, {tied} tied, {lost} lost", n_pos=n_pos,
           n_neg=n_neg, total=total, won=won, tied=tied, lost=lost),
        tr("expected (won + ½·tied) / pairs = ({won} + {half}) / {total} = {auc:.6g}", won=won, half=f"{tied / 2:g}",
           total=total, auc=(won + tied / 2) / total),
        tr("yours × {total} pairs = {credit:.6g} pairs' worth (won alone: {won}; won + tied: {both})", total=total,
           credit=value * total, won=won, both=won + tied),
    ]


def _groups_lines(y_true, y_score, groups, value: float) -> list[str]:
    y = np.asarray(y_true).astype(bool)
    s, ids = np.asarray(y_score), np.asarray(groups)
    lines = [tr("group         n  pos  neg  AUC      weight")]
    rows = np.unique(ids)
    for gid in rows[:_GROUP_ROWS]:
        member = ids == gid
        n, pos = int(member.sum()), int(y[member].sum())
        if 0 < pos < n:
            n_pos, n_neg, won, tied, _ = pair_counts(y[member], s[member])
            auc, weight = f"{(won + tied / 2) / (n_pos * n_neg):.4f}", str(n)
        else:
            auc, weight = tr("skipped"), "0"
        lines.append(f"{_pad(str(gid)[:10], 10)} {n:>4} {pos:>4} {n - pos:>4}  {_pad(auc, 8)} {weight:>6}")
    if len(rows) > _GROUP_ROWS:
        lines.append(tr("… and {n} more groups", n=len(rows) - _GROUP_ROWS))
    lines.append(tr("GAUC = Σ n·AUC / Σ n over the groups with both classes; yours is {value:.6g}", value=value))
    return lines


def _pad(text: str, width: int) -> str:
    """Left-aligned in `width` terminal cells (a CJK character or a Chinese word takes two per character)."""
    from rich.cells import cell_len

    return text + " " * max(0, width - cell_len(text))


# ---------------------------------------------------------------- known mistakes


def _auc_variant(y, s, tie, ranks, denominator, ascending, one_class, sort_kind, zero="float"):
    """The AUC of one set of samples, with the switches of `_variant`."""
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    if n_pos == 0 or n_neg == 0:
        if one_class == "raise":
            raise ValueError("only one class present")
        if one_class == "zero_division":  # "float division by zero" or "division by zero", as Python says
            return (0.0 if zero == "float" else 0) / (n_pos * n_neg)
        return float("nan")
    if ranks == "ordinal":
        r = np.empty(len(s))
        r[np.argsort(s, kind=sort_kind)] = np.arange(1, len(s) + 1)
        auc = (r[y].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)
    elif ranks == "roc":
        order = np.argsort(-s, kind=sort_kind)
        tpr = np.concatenate([[0.0], np.cumsum(y[order]) / n_pos])
        fpr = np.concatenate([[0.0], np.cumsum(~y[order]) / n_neg])
        auc = float(np.sum((fpr[1:] - fpr[:-1]) * (tpr[1:] + tpr[:-1]) / 2))
    else:
        pos, neg = s[y], s[~y]
        won = np.count_nonzero(pos[:, None] > neg[None, :])
        tied = np.count_nonzero(pos[:, None] == neg[None, :])
        total = n_pos * n_neg if denominator == "pairs" else len(s) ** 2
        auc = (won + tie * tied) / total
    return 1 - auc if ascending else auc


def _variant(*, tie=0.5, ranks=None, denominator="pairs", ascending=False, one_class="raise", weight="impressions",
             single_class="skip", groups_used=True, sort_kind="stable", zero=("float", "float")):
    """The reference with one switch turned. tie: what a tied pair counts. ranks: "ordinal" (the rank-sum formula
    with ranks from a stable argsort, ties not averaged) or "roc" (the ROC curve through every sample sorted by
    descending score, trapezoids, tied thresholds not merged). denominator: "pairs" (n_pos·n_neg) or "n_squared".
    one_class: "raise", "nan" (0/0 in NumPy) or "zero_division" (Python ints). weight: "impressions", "clicks"
    (positives) or "none". single_class: "skip", "half" (counted as 0.5; still a ValueError when no group holds
    both classes) or "half_always" (0.5 then too). sort_kind: the argsort of "ordinal" and "roc" ("stable", or None:
    NumPy's default quicksort, whose order among ties differs from a stable sort's past 16 elements). zero: with
    one_class="zero_division", what is divided by zero in the AUC and in GAUC's total ("float": 0.0 / 0, "int":
    0 / 0, whose errors Python words differently)."""
    def roc_auc(y_true, y_score, groups=None):
        y, s = np.asarray(y_true).astype(bool), np.asarray(y_score)
        if groups is None or not groups_used:
            return float(_auc_variant(y, s, tie, ranks, denominator, ascending, one_class, sort_kind, zero[0]))
        ids = np.asarray(groups)
        total = norm = 0.0
        valid = single_class == "half_always"
        for gid in np.unique(ids):
            member = ids == gid
            n, clicks = int(member.sum()), int(y[member].sum())
            if clicks in (0, n):
                if single_class != "skip":
                    total, norm = total + n * 0.5, norm + n
                continue
            w = {"impressions": n, "clicks": clicks, "none": 1}[weight]
            auc = _auc_variant(y[member], s[member], tie, ranks, denominator, ascending, one_class, sort_kind)
            total, norm, valid = total + w * auc, norm + w, True
        if not valid:
            if one_class == "raise":
                raise ValueError("no group holds both classes")
            if one_class == "zero_division":
                return (0.0 if zero[1] == "float" else 0) / 0
            return float("nan")
        return float(total / norm)
    return roc_auc


MISTAKES = (
    Mistake("ties_zero", _variant(tie=0.0)),
    Mistake("ties_one", _variant(tie=1.0)),
    Mistake("ranks_not_averaged", _variant(ranks="ordinal")),
    Mistake("ranks_not_averaged", _variant(ranks="ordinal", sort_kind=None)),
    Mistake("thresholds_not_merged", _variant(ranks="roc")),
    Mistake("thresholds_not_merged", _variant(ranks="roc", sort_kind=None)),
    Mistake("n_squared", _variant(denominator="n_squared")),
    Mistake("ascending", _variant(ascending=True)),
    Mistake("no_error_on_one_class", _variant(one_class="nan")),
    Mistake("no_error_on_one_class", _variant(one_class="zero_division")),
    Mistake("no_error_on_one_class", _variant(one_class="zero_division", zero=("float", "int"))),
    Mistake("no_error_on_one_class", _variant(one_class="zero_division", zero=("int", "float"))),
    Mistake("no_error_on_one_class", _variant(one_class="zero_division", zero=("int", "int"))),
    Mistake("gauc_click_weighted", _variant(weight="clicks")),
    Mistake("gauc_unweighted", _variant(weight="none")),
    Mistake("gauc_single_class_half", _variant(single_class="half")),
    Mistake("gauc_single_class_half", _variant(single_class="half_always")),
    Mistake("groups_ignored", _variant(groups_used=False)),
)

# `kata check roc-auc --bench`: 2000 scores with ties.
BENCH = ("N = 2000, 50 score levels", _plain(2000, 50))
