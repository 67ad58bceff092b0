"""NMS as a text picture: the boxes in the order greedy NMS visits them (score, largest first; ties by
lower index), what the contract does with each (kept, and in which place, or suppressed by which kept
box at what IoU) and what the learner's answer did, with the first boxes that differ marked. A few
lines, 60 columns at most, plain text (it reads the same in a pipe), from plain Python values.

     #  box   score  expected               yours
     1    3  0.9000  kept #1                kept #1
     2    0  0.8000  cut by 3 (IoU 0.6200)  kept #2 ✗
     3    5  0.5000  kept #2                cut     ✗
    IoU > 0.5 suppresses a box; IoU = 0.5 keeps it

The widest line, in Chinese with two-digit box numbers, is 55 cells: it fits a report panel at 60
columns (56 cells inside the border).
"""
from __future__ import annotations

from rich.cells import cell_len

from checker.text.i18n import tr

BEFORE, AFTER = 3, 3  # boxes shown before the first disagreement and after the last one shown


def nms_picture(visit: list[int], scores: list[float], expected_keep: list[int], got_keep: list[int],
                suppressor: dict[int, tuple[int, float]], threshold: float) -> str:
    """Lines (each starting with two spaces). visit: box indices in visiting order; suppressor: for
    each box the contract suppresses, (the kept box that suppresses it, their IoU)."""
    want = {box: place for place, box in enumerate(expected_keep, 1)}
    have = {box: place for place, box in enumerate(got_keep, 1)}

    def said(box: int, places: dict[int, int], reason: bool) -> str:
        if box in places:
            return tr("kept #{n}", n=places[box])
        if reason and box in suppressor:
            by, iou = suppressor[box]
            return tr("cut by {box} (IoU {iou})", box=by, iou=f"{iou:.4f}")
        return tr("cut")

    rows = [(box, said(box, want, True), said(box, have, False), want.get(box) != have.get(box)) for box in visit]
    differ = [j for j, row in enumerate(rows) if row[3]]
    first = differ[0] if differ else 0
    shown = [j for j in differ if j - first <= 6][:4]  # a few disagreements close to the first
    lo, hi = max(0, first - BEFORE), min(len(rows), shown[-1] + AFTER + 1 if shown else len(rows))
    labels = ["#", tr("box"), tr("score"), tr("expected"), tr("yours")]  # "#": the place in visiting order
    w0 = max(2, len(str(len(rows))))
    w1, w2 = max(3, cell_len(labels[1])), max(6, cell_len(labels[2]))
    w3 = max([cell_len(labels[3])] + [cell_len(rows[j][1]) for j in range(lo, hi)]) + 2
    w4 = max([cell_len(labels[4])] + [cell_len(rows[j][2]) for j in range(lo, hi)]) + 1
    lines = [f"  {_rjust(labels[0], w0)}  {_rjust(labels[1], w1)}  {_rjust(labels[2], w2)}  "
             f"{_pad(labels[3], w3)}{labels[4]}".rstrip()]
    if lo > 0:
        lines.append("  " + tr("… {n} boxes visited before, the same in both", n=lo))
    for j in range(lo, hi):
        box, exp, got, bad = rows[j]
        flag = "✗" if bad else ""
        lines.append(f"  {j + 1:>{w0}}  {box:>{w1}}  {_score(scores[box]):>{w2}}  {_pad(exp, w3)}{_pad(got, w4)}{flag}"
                     .rstrip())
    if hi < len(rows):
        lines.append("  " + tr("… {n} more boxes", n=len(rows) - hi))
    lines.append("  " + tr("IoU > {t} suppresses a box; IoU = {t} keeps it", t=f"{threshold:g}"))
    return "\n".join(lines)


def _score(value: float) -> str:
    text = f"{value:.4f}"
    return text if len(text) <= 6 else f"{value:.3g}"


def _rjust(text: str, width: int) -> str:
    return " " * max(0, width - cell_len(text)) + text


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - cell_len(text))
