"""A k-means run as a text picture: the points (first two dims) drawn twice, side by side, each point as the
label the reference gave it and the label the learner's code gave it, the centroids as capital letters; then
the first points whose label differs and the centroids, expected and yours. Plain text (it reads the same in
a pipe), at most 54 cells wide so it fits a report at 60 columns, from plain Python values.

      expected                      yours
      ┌──────────────────────┐      ┌──────────────────────┐
      │ 0 0  A               │      │ 0 0  A               │
      │   0       1  1       │      │   0       1  2       │
      …
"""
from __future__ import annotations

import math
from typing import Sequence

from rich.cells import cell_len

from checker.text.i18n import tr

W, H = 22, 9  # the inner width and height of each panel, in cells
SHOWN_POINTS, SHOWN_CENTROIDS = 3, 8


def kmeans_scatter(X: Sequence[Sequence[float]], expected_labels: Sequence[int], got_labels: Sequence[int],
                   expected_centroids: Sequence[Sequence[float]], got_centroids: Sequence[Sequence[float]]) -> str:
    """Lines (each starting with two spaces) to put under the first wrong value of a k-means case."""
    points = [(float(p[0]), float(p[1]) if len(p) > 1 else 0.0) for p in X]
    flat = len(X[0]) < 2 if X else True
    height = 1 if flat else H
    box = _Box(points, height)
    left = box.draw(points, expected_labels, expected_centroids)
    right = box.draw(points, got_labels, got_centroids)
    titles = [tr("expected"), tr("yours")]
    lines = ["  " + _pad(titles[0], W + 2 + 4) + titles[1]]
    lines += [f"  {a}    {b}" for a, b in zip(left, right)]
    lines.append("  " + box.axes(flat))
    lines.append("  " + tr("0 1 2 …: a point's label · +: a cell of mixed labels"))
    lines.append("  " + tr("A B C …: centroid 0, 1, 2 …"))
    lines += _differing(X, expected_labels, got_labels)
    lines += _centroids(expected_centroids, got_centroids)
    return "\n".join(line.rstrip() for line in lines)


class _Box:
    """Where each point falls: the range of the points' first two dims, mapped onto W x height cells."""

    def __init__(self, points: list[tuple[float, float]], height: int):
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        self.x0, self.x1 = _span(xs)
        self.y0, self.y1 = _span(ys)
        self.height = height

    def cell(self, x: float, y: float) -> tuple[int, int] | None:
        if not (math.isfinite(x) and math.isfinite(y)):
            return None
        col = round((x - self.x0) / (self.x1 - self.x0) * (W - 1))
        row = self.height - 1 - round((y - self.y0) / (self.y1 - self.y0) * (self.height - 1)) if self.height > 1 else 0
        return (row, col) if 0 <= col < W and 0 <= row < self.height else None

    def draw(self, points: list[tuple[float, float]], labels: Sequence[int], centroids: Sequence[Sequence[float]]
             ) -> list[str]:
        seen: dict[tuple[int, int], set[int]] = {}
        for (x, y), label in zip(points, labels):
            at = self.cell(x, y)
            if at is not None:
                seen.setdefault(at, set()).add(int(label))
        grid = [[" "] * W for _ in range(self.height)]
        for (row, col), held in seen.items():
            grid[row][col] = _label_char(next(iter(held))) if len(held) == 1 else "+"
        for k, c in reversed(list(enumerate(centroids))):  # the lowest index on top where two coincide
            at = self.cell(float(c[0]), float(c[1]) if len(c) > 1 else (self.y0 + self.y1) / 2)
            if at is not None:
                grid[at[0]][at[1]] = _centroid_char(k)
        return ["┌" + "─" * W + "┐"] + ["│" + "".join(row) + "│" for row in grid] + ["└" + "─" * W + "┘"]

    def axes(self, flat: bool) -> str:
        across = tr("→ dim 0: {low} to {high}", low=_num(self.x0), high=_num(self.x1))
        if flat:
            return across + "   " + tr("(1-D points)")
        return across + "   " + tr("↑ dim 1: {low} to {high}", low=_num(self.y0), high=_num(self.y1))


def _span(values: list[float]) -> tuple[float, float]:
    finite = [v for v in values if math.isfinite(v)] or [0.0]
    low, high = min(finite), max(finite)
    if high - low <= 1e-12 * max(1.0, abs(low)):
        return low - 1.0, high + 1.0
    return low, high


def _label_char(k: int) -> str:
    if 0 <= k < 10:
        return str(k)
    return chr(ord("a") + k - 10) if 10 <= k < 36 else "#"


def _centroid_char(k: int) -> str:
    return chr(ord("A") + k) if 0 <= k < 26 else "*"


def _num(v: float) -> str:
    """4 significant digits, short exponents (6.104e-5, not 6.104e-05)."""
    if not math.isfinite(v):
        return str(v)
    text = f"{v:.4g}"
    return text.replace("e-0", "e-").replace("e+0", "e+")


def _where(p: Sequence[float]) -> str:
    shown = ", ".join(_num(float(v)) for v in p[:2])
    return f"({shown}{', …' if len(p) > 2 else ''})"


def _differing(X, expected: Sequence[int], got: Sequence[int]) -> list[str]:
    differ = [i for i, (e, g) in enumerate(zip(expected, got)) if int(e) != int(g)]
    if not differ:
        return []
    lines = ["  " + tr("{n} of {total} labels differ:", n=len(differ), total=len(expected))]
    for i in differ[:SHOWN_POINTS]:
        lines.append("    " + tr("point {i} {where}: expected {expected}, yours {got}", i=i, where=_where(X[i]),
                                 expected=int(expected[i]), got=int(got[i])))
    if len(differ) > SHOWN_POINTS:
        lines.append("    " + tr("… and {n} more", n=len(differ) - SHOWN_POINTS))
    return lines


def _centroids(expected: Sequence[Sequence[float]], got: Sequence[Sequence[float]]) -> list[str]:
    rows = [(f"{_centroid_char(k)} {k}", _where(e), _where(got[k]) if k < len(got) else "—",
             "" if k < len(got) and _close(e, got[k]) else "✗") for k, e in enumerate(expected)]
    head = (tr("centroid"), tr("expected"), tr("yours"), "")
    widths = [max(cell_len(r[i]) for r in rows + [head]) for i in range(3)]
    lines = []
    for r in [head] + rows[:SHOWN_CENTROIDS]:
        lines.append("  " + "  ".join(_pad(r[i], widths[i]) for i in range(3)) + (" " + r[3] if r[3] else ""))
    if len(rows) > SHOWN_CENTROIDS:
        lines.append("  " + tr("… and {n} more", n=len(rows) - SHOWN_CENTROIDS))
    return lines


def _close(e: Sequence[float], g: Sequence[float]) -> bool:
    if len(e) != len(g):
        return False
    scale = max([1.0] + [abs(float(v)) for v in e if math.isfinite(float(v))])
    return all(float(a) == float(b) or abs(float(a) - float(b)) <= 1e-4 * scale for a, b in zip(e, g))


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - cell_len(text))
