"""Case families for `nms`: IoU exactly at the threshold (kept) and just above it (suppressed), a chain
(a suppressed box suppresses nothing), tied scores on overlapping boxes (the lower index survives),
boxes disjoint on both axes (an unclamped intersection is a positive product of two negatives),
touching boxes at threshold 0, duplicates at threshold 1, a nested box, N = 0 and 1, float64,
coordinates near 1e4, random draws (some full of tied scores) and the device case.

Exact cases are built from small integers and dyadic fractions, so every order of floating-point
operations gets the same IoU. Random float draws keep every pairwise IoU at least 1e-4 away from the
threshold, so rounding never decides a case; the random integer-box family needs no margin (an IoU of
small integers is a ratio every dtype rounds the same way, and equals the threshold only exactly).

A failing case is shown as the list NMS builds: each box in visiting order, kept (in which place) or
suppressed (by which kept box, at what IoU), next to what the learner's answer did.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import torch

from checker.judge.codec import TensorValue
from checker.judge.compare import compare_values, split_outputs, words_wanted
from checker.text.i18n import plural, tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _training
from checker.specs._training import pick, randint, uniform

MARGIN = 1e-4  # random draws: every IoU at least this far from the threshold


def iou_matrix(boxes: torch.Tensor) -> torch.Tensor:
    """(N, N) float64 IoU of every pair, the contract's formula."""
    b = boxes.double()
    x1, y1, x2, y2 = b.unbind(1)
    area = (x2 - x1) * (y2 - y1)
    w = (torch.minimum(x2[:, None], x2[None]) - torch.maximum(x1[:, None], x1[None])).clamp(min=0)
    h = (torch.minimum(y2[:, None], y2[None]) - torch.maximum(y1[:, None], y1[None])).clamp(min=0)
    inter = w * h
    return inter / (area[:, None] + area[None] - inter)


def _inputs(boxes: list | torch.Tensor, scores: list | torch.Tensor, threshold: float,
            dtype: torch.dtype = torch.float32) -> Inputs:
    boxes = torch.as_tensor(boxes, dtype=torch.float64).reshape(-1, 4).to(dtype)
    scores = torch.as_tensor(scores, dtype=torch.float64).reshape(-1).to(dtype)
    return Inputs(args={"boxes": boxes, "scores": scores, "iou_threshold": threshold},
                  show={"iou_threshold": threshold})


def _fixed(boxes: list, scores: list, threshold: float, dtype: torch.dtype = torch.float32,
           shuffle: bool = True) -> Callable[[torch.Generator], Inputs]:
    """A hand-made case; shuffled (boxes and scores together) unless tie order is what it is about."""
    def make(g: torch.Generator) -> Inputs:
        b, s = torch.tensor(boxes, dtype=torch.float64).reshape(-1, 4), torch.tensor(scores, dtype=torch.float64)
        if shuffle and len(scores) > 1:
            order = torch.randperm(len(scores), generator=g)
            b, s = b[order], s[order]
        return _inputs(b, s, threshold, dtype)
    return make


def _far_from(boxes: torch.Tensor, threshold: float) -> bool:
    iou = iou_matrix(boxes)
    off = ~torch.eye(len(boxes), dtype=torch.bool)
    return bool(((iou - threshold).abs()[off] >= MARGIN).all())


def _random(kind: str) -> Callable[[torch.Generator], Inputs]:
    def make(g: torch.Generator) -> Inputs:
        dtype = torch.float64 if kind == "float64" else torch.float32
        N = randint(g, 0, 40)
        threshold = pick(g, [0.3, 0.5, 0.7, round(uniform(g, 0.05, 0.95), 3)])
        for _ in range(200):
            if kind == "integer":
                threshold = pick(g, [0.0, 0.25, 0.5, 0.5, 1.0])
                x1, y1 = torch.randint(0, 8, (N,), generator=g), torch.randint(0, 8, (N,), generator=g)
                w, h = torch.randint(1, 5, (N,), generator=g), torch.randint(1, 5, (N,), generator=g)
                boxes = torch.stack([x1, y1, x1 + w, y1 + h], 1).double()
            else:
                spread = pick(g, [30.0, 60.0, 120.0])
                x1, y1 = torch.rand(N, generator=g, dtype=torch.float64) * spread, torch.rand(N, generator=g, dtype=torch.float64) * spread
                w = 5 + torch.rand(N, generator=g, dtype=torch.float64) * 35
                h = 5 + torch.rand(N, generator=g, dtype=torch.float64) * 35
                boxes = torch.stack([x1, y1, x1 + w, y1 + h], 1).to(dtype).double()
                if not _far_from(boxes, threshold):
                    continue
            if kind in ("ties", "integer"):
                scores = torch.randint(0, 4, (N,), generator=g).double() / 4 + 0.125  # many exact ties
            else:
                scores = torch.rand(N, generator=g, dtype=torch.float64)
            return _inputs(boxes, scores, threshold, dtype)
        raise RuntimeError("no draw with every IoU away from the threshold: widen the family's ranges")
    return make


def _many_ties(g: torch.Generator) -> Inputs:
    """48 boxes whose scores take 4 values: enough equal scores that an unstable sort (torch.sort without
    stable=True, np.argsort's quicksort) visits some of them out of index order."""
    N = 48
    for _ in range(200):
        x1, y1 = torch.rand(N, generator=g, dtype=torch.float64) * 100, torch.rand(N, generator=g, dtype=torch.float64) * 100
        size = 5 + torch.rand(N, 2, generator=g, dtype=torch.float64) * 35
        boxes = torch.stack([x1, y1, x1 + size[:, 0], y1 + size[:, 1]], 1).float().double()
        if _far_from(boxes, 0.5):
            return _inputs(boxes, torch.randint(0, 4, (N,), generator=g).double() / 4 + 0.125, 0.5)
    raise RuntimeError("no draw")


def _large(g: torch.Generator) -> Inputs:
    """Coordinates near 1e4 (a 1080p-frame-sized image scaled up), float32."""
    for _ in range(200):
        N = 12
        x1 = 10000 + torch.rand(N, generator=g, dtype=torch.float64) * 200
        y1 = 10000 + torch.rand(N, generator=g, dtype=torch.float64) * 200
        size = 20 + torch.rand(N, 2, generator=g, dtype=torch.float64) * 60
        boxes = torch.stack([x1, y1, x1 + size[:, 0], y1 + size[:, 1]], 1).float().double()
        if _far_from(boxes, 0.5):
            return _inputs(boxes, torch.rand(N, generator=g, dtype=torch.float64), 0.5)
    raise RuntimeError("no draw")


# (x1, y1, x2, y2) rows and their scores. IoU 0.5 exactly: [0,3]x[0,1] and [1,4]x[0,1] share 2 of 4.
AT_THRESHOLD = ([[0, 0, 3, 1], [1, 0, 4, 1], [10, 10, 12, 12], [10.5, 10, 12.5, 12]], [0.9, 0.75, 0.625, 0.5])
# 4 × 2.03125 nested in 4 × 4: IoU 0.5078125 > 0.5.
JUST_ABOVE = ([[0, 0, 4, 4], [0, 0, 4, 2.03125], [8, 0, 12, 4]], [0.5, 0.875, 0.25])
# A–B and B–C overlap with IoU 0.6, A–C with 1/3: A suppresses B, and B (suppressed) must not suppress C.
CHAIN = ([[0, 0, 4, 2], [1, 0, 5, 2], [2, 0, 6, 2], [20, 20, 22, 22]], [0.9, 0.8, 0.7, 0.1])
# Boxes 0 and 2 tie at 0.5 and overlap (IoU 0.6): box 0 survives; 3 and 4 tie at 0.25 (IoU 0.6): 3 survives.
TIES = ([[0, 0, 4, 2], [10, 10, 12, 12], [1, 0, 5, 2], [20, 0, 24, 2], [21, 0, 25, 2]], [0.5, 0.875, 0.5, 0.25, 0.25])
# Pairs apart on both axes: the unclamped overlaps are both negative and their product positive.
DISJOINT = ([[0, 0, 1, 1], [2, 2, 3, 3], [5, 0, 6, 1], [3.5, -2, 4.5, -1]], [0.9, 0.8, 0.7, 0.6])
# Edges touch, interiors do not: IoU 0 is not > 0, so all survive; the last box overlaps the first.
TOUCHING = ([[0, 0, 1, 1], [1, 0, 2, 1], [0, 1, 1, 2], [1, 1, 2, 2], [0.5, 0.5, 1.5, 1.5]], [0.9, 0.8, 0.7, 0.6, 0.5])
# Exact duplicates: IoU 1 is not > 1.
DUPLICATES = ([[2, 2, 6, 5]] * 3 + [[0, 0, 1, 1]] * 2, [0.25, 0.75, 0.5, 0.375, 0.875])
# A 2 × 2 box inside a 4 × 4 box: IoU 0.25 > 0.21875 (inter/(area_a + area_b) would give 0.2). Thresholds of
# the exact cases are exact in float32 too, so comparing in float32 or float64 agrees.
NESTED = ([[0, 0, 4, 4], [1, 1, 3, 3], [10, 10, 14, 14], [11, 11, 12, 12]], [0.75, 0.875, 0.5, 0.625])

FAMILIES = (
    Family("iou_at_threshold_kept", _fixed(*AT_THRESHOLD, 0.5)),
    Family("iou_just_above_threshold", _fixed(*JUST_ABOVE, 0.5)),
    Family("chain", _fixed(*CHAIN, 0.5)),
    Family("tied_scores_overlap", _fixed(*TIES, 0.5, shuffle=False)),
    Family("many_tied_scores", _many_ties),
    Family("disjoint_both_axes", _fixed(*DISJOINT, 0.3)),
    Family("touching_threshold_zero", _fixed(*TOUCHING, 0.0)),
    Family("duplicates_threshold_one", _fixed(*DUPLICATES, 1.0, shuffle=False)),
    Family("nested_box", _fixed(*NESTED, 0.21875)),
    Family("empty", _fixed([], [], 0.5)),
    Family("one_box", _fixed([[1.5, 2.0, 4.0, 7.5]], [0.3], 0.5)),
    Family("float64", _random("float64")),
    Family("large_coordinates", _large),
    Family("random", _random("float32"), draws=50),
    Family("random_ties", _random("ties"), draws=20),
    Family("random_float64", _random("float64"), draws=12),
    Family("random_integer_boxes", _random("integer"), draws=15),
    Family("device", _random("float32"), track_device=True),
)
FAMILIES = _training.single_threaded(FAMILIES)


# ---------------------------------------------------------------- the picture


def compare(kata: Any, case: Any, expected: list, got: Any) -> list[Problem]:
    """Structure as usual (a 1-D int64 tensor on boxes' device); then exact indices, and when they
    differ, the kept/suppressed list in visiting order."""
    want, _ = split_outputs(kata, expected[0].value)
    have, problems = split_outputs(kata, got.value)
    if have is None:
        return problems
    item = kata.outputs[0]
    exp, out = want[item], have[item]
    if not (isinstance(out, TensorValue) and len(out.shape) == 1 and out.dtype == exp.dtype and out.data is not None
            and exp.data is not None and not out.is_numpy):
        return compare_values(item, exp, out, 0.0, 0.0)
    structure = compare_values(item, TensorValue(None, exp.dtype, out.shape, exp.device), out, 0.0, 0.0)
    if structure:
        return structure  # the device
    if torch.equal(out.data, exp.data):
        return []
    return [Problem("rule", item, _said(case, exp.data.tolist(), out.data.tolist()))]


def _said(case: Any, want: list[int], have: list[int]) -> str:
    boxes, scores = case.inputs.args["boxes"], case.inputs.args["scores"]
    threshold = case.inputs.args["iou_threshold"]
    N = len(scores)
    outside = [i for i in have if not 0 <= i < N]
    if outside:
        return tr("keep holds {i}, which is not a box index (boxes has {n} rows)", i=outside[0], n=N)
    twice = [i for i in dict.fromkeys(have) if have.count(i) > 1]
    if twice:
        return tr("box {i} appears {k} times in keep: each kept box once", i=twice[0], k=have.count(twice[0]))
    if sorted(want) == sorted(have):
        head = tr("the right boxes, in the wrong order: keep lists them in the order kept (decreasing score), "
                  "here {want}; yours {have}", want=_short(want), have=_short(have))
    else:
        head = plural(len(have), "{n} box kept, expected {want}: {detail}", "{n} boxes kept, expected {want}: {detail}",
                      want=len(want), detail=_difference(want, have))
    visit = torch.sort(scores, descending=True, stable=True).indices.tolist()
    iou = iou_matrix(boxes)
    suppressor, kept = {}, []
    for i in visit:  # the contract's run again, to say who suppressed whom
        over = [k for k in kept if float(iou[k, i]) > threshold]
        if over:
            suppressor[i] = (over[0], float(iou[over[0], i]))
        else:
            kept.append(i)
    if not words_wanted():
        return head
    from checker.specs.pictures.nms import nms_picture

    picture = nms_picture(visit, [float(s) for s in scores.double().tolist()], want, have, suppressor, threshold)
    return head + "\n" + picture


def _short(indices: list[int], at_most: int = 12) -> str:
    shown = ", ".join(str(i) for i in indices[:at_most])
    return f"[{shown}{', …' if len(indices) > at_most else ''}]"


def _difference(want: list[int], have: list[int]) -> str:
    extra = [i for i in have if i not in want]
    missing = [i for i in want if i not in have]
    parts = []
    if extra:
        parts.append(tr("yours also keeps {boxes}", boxes=_short(extra, 6)))
    if missing:
        parts.append(tr("yours drops {boxes}", boxes=_short(missing, 6)))
    return tr("; ").join(parts)


# ---------------------------------------------------------------- known mistakes


def _variant(*, plus_one=False, inclusive=False, order="descending", suppressors="kept", subtract=True,
             clamp=True, sort_result=False):
    """order: "descending" (stable: ties by lower index), "ties_reversed" (argsort()[::-1]), "ascending",
    "unstable" (torch.sort descending without stable=True) or "numpy_unstable" (np.argsort(-scores), a
    quicksort): ties in whatever order the sort leaves them; suppressors: "kept" (right), "visited" (a suppressed box still suppresses) or "all"
    (a box is dropped when any other box, of any score, overlaps it too much)."""
    def nms(boxes, scores, iou_threshold):
        one = 1 if plus_one else 0
        x1, y1, x2, y2 = boxes.unbind(1)
        areas = (x2 - x1 + one) * (y2 - y1 + one)
        w = torch.minimum(x2[:, None], x2[None]) - torch.maximum(x1[:, None], x1[None]) + one
        h = torch.minimum(y2[:, None], y2[None]) - torch.maximum(y1[:, None], y1[None]) + one
        if clamp:
            w, h = w.clamp(min=0), h.clamp(min=0)
        inter = w * h
        union = areas[:, None] + areas[None] - inter if subtract else areas[:, None] + areas[None]
        iou = (inter / union).double()
        over = (iou >= iou_threshold if inclusive else iou > iou_threshold).tolist()
        if order == "descending":
            visit = torch.sort(scores, descending=True, stable=True).indices.tolist()
        elif order == "unstable":
            visit = torch.sort(scores, descending=True).indices.tolist()
        elif order == "numpy_unstable":
            visit = np.argsort(-scores.detach().cpu().numpy()).tolist()
        else:
            visit = torch.sort(scores, stable=True).indices.tolist()
            visit = visit[::-1] if order == "ties_reversed" else visit
        keep, seen = [], []
        for i in visit:
            if suppressors == "all":
                dropped = any(over[j][i] for j in range(len(visit)) if j != i)
            else:
                dropped = any(over[j][i] for j in (keep if suppressors == "kept" else seen))
            seen.append(i)
            if not dropped:
                keep.append(i)
        if sort_result:
            keep.sort()
        return torch.tensor(keep, dtype=torch.int64, device=boxes.device)
    return nms


MISTAKES = (
    Mistake("plus_one_area", _variant(plus_one=True)),
    Mistake("threshold_inclusive", _variant(inclusive=True)),
    Mistake("ties_reversed", _variant(order="ties_reversed")),
    Mistake("unstable_sort", _variant(order="unstable")),
    Mistake("unstable_sort", _variant(order="numpy_unstable")),
    Mistake("ascending_scores", _variant(order="ascending")),
    Mistake("suppressed_still_suppress", _variant(suppressors="visited")),
    Mistake("iou_against_all_boxes", _variant(suppressors="all")),
    Mistake("union_keeps_intersection", _variant(subtract=False)),
    Mistake("intersection_not_clamped", _variant(clamp=False)),
    Mistake("kept_indices_sorted", _variant(sort_result=True)),
)


def _bench(g: torch.Generator) -> Inputs:
    N = 2000
    xy = torch.rand(N, 2, generator=g) * 600
    wh = 10 + torch.rand(N, 2, generator=g) * 90
    return _inputs(torch.cat([xy, xy + wh], 1), torch.rand(N, generator=g), 0.5)


# `kata check nms --bench`: a detector's pre-NMS candidates for one image.
BENCH = ("N = 2000 boxes in a 700×700 image, threshold 0.5", _bench)
