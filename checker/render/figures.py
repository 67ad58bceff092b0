"""Pictures that locate a bug, picked from the shape of the data — never from a kata's internals.

`figure_for(kata, case, problem)` looks at what the problem carries (expected and got as nested
lists, small tensors only) and at the case's inputs:

    a number                          -> a scalar table with the case's parameters   (scalars.py)
    booleans                          -> expected / got / difference grids           (masks.py)
    [T] or [T, N] beside rewards,
      dones and values inputs         -> a timeline t | reward | done | value | …    (timelines.py)
    any other float tensor            -> the rows that differ, with the mask row,
                                         or the one same-shaped input, beside them   (masks.py)

Returns None when no picture helps (structure errors, big tensors, custom problems). Everything
here reads plain Python values: no torch, so reports render (and are tested) without it.
"""
from __future__ import annotations

import math
from typing import Any, Iterator

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from rich.text import Text

from checker.i18n import tr
from checker.results import CaseResult, Problem, TensorInfo

PICTURED = ("values", "nonfinite", "precision")
RL_INPUTS = ("rewards", "dones", "values")


def figure_for(kata: str, case: CaseResult, problem: Problem) -> RenderableType | None:
    """The picture for one problem of one case, or None. A picture that cannot be drawn is left
    out rather than allowed to hide the rest of the report."""
    try:
        figure = _figure(case, problem)
    except Exception:  # noqa: BLE001 — the report matters more than its picture
        return None
    return None if figure is None else _Safe(figure)


class _Safe:
    """Renders its figure up front, so that a figure that fails to draw draws nothing."""

    def __init__(self, inner: RenderableType):
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        try:
            lines = console.render_lines(self.inner, options, pad=False)
        except Exception:  # noqa: BLE001
            return
        for line in lines:
            yield from line
            yield Segment.line()


def _figure(case: CaseResult, problem: Problem) -> RenderableType | None:
    if not pictured(problem):
        return None
    expected, got = problem.expected, problem.got
    if is_number(expected) and is_number(got):
        from checker.render.scalars import scalar_table

        return scalar_table(case, problem)
    if shape_of(expected) != shape_of(got) or _size(shape_of(expected)) == 0:
        return None
    if all(isinstance(v, bool) for v in flat(expected)) and all(isinstance(v, bool) for v in flat(got)):
        from checker.render.masks import MaskFigure

        return MaskFigure(problem.item or "mask", expected, got)
    from checker.render.timelines import timeline_item, timeline

    chosen = timeline_item(case)
    if chosen is not None:
        if chosen is problem:
            return timeline(case, problem)
        where = "below" if case.problems.index(chosen) > case.problems.index(problem) else "above"
        if chosen.kind == "precision":  # rounding noise has no step to locate
            shows = tr("  the {item} timeline below shows it", item=chosen.item) if where == "below" else tr(
                "  the {item} timeline above shows it", item=chosen.item)
            return Text(shows, style="dim")
        return Text(f"  the {chosen.item} timeline {where} locates it", style="dim")
    from checker.render.masks import rows_figure

    return rows_figure(case, problem) if rows_item(case) is problem else None


def pictured(problem: Problem) -> bool:
    return problem.kind in PICTURED and problem.expected is not None and problem.got is not None


def rows_item(case: CaseResult) -> Problem | None:
    """One row picture per case: the attention weights when they differ, else the first float item."""
    candidates = [p for p in case.problems if pictured(p) and _size(shape_of(p.expected)) > 1
                  and shape_of(p.expected) == shape_of(p.got) and not all(isinstance(v, bool) for v in flat(p.expected))]
    weights = [p for p in candidates if "weights" in p.item]
    return (weights or candidates or [None])[0]


# ---------------------------------------------------------------- plain nested lists


def _size(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n if shape else 0


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def shape_of(value: Any) -> tuple[int, ...]:
    shape = []
    while isinstance(value, list):
        shape.append(len(value))
        if not value:
            break
        value = value[0]
    return tuple(shape)


def flat(value: Any) -> Iterator[Any]:
    if isinstance(value, list):
        for v in value:
            yield from flat(v)
    else:
        yield value


def at(value: Any, index: tuple[int, ...]) -> Any:
    for i in index:
        value = value[i]
    return value


def indices(shape: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every index of `shape` in row-major order."""
    if not shape:
        yield ()
        return
    for i in range(shape[0]):
        for rest in indices(shape[1:]):
            yield (i, *rest)


def broadcast_at(value: Any, index: tuple[int, ...]) -> Any:
    """value[index] where `value` broadcasts to the shape `index` indexes (torch's rules)."""
    shape = shape_of(value)
    tail = index[len(index) - len(shape):] if shape else ()
    return at(value, tuple(0 if n == 1 else i for n, i in zip(shape, tail)))


def broadcastable(small: tuple[int, ...], big: tuple[int, ...]) -> bool:
    if len(small) > len(big):
        return False
    return all(s in (1, b) for s, b in zip(reversed(small), reversed(big)))


def differs(expected: Any, got: Any, rtol: float, atol: float) -> bool:
    """torch.isclose's rule with equal_nan, on plain numbers (bools compare exactly)."""
    if isinstance(expected, bool) or isinstance(got, bool) or not (is_number(expected) and is_number(got)):
        return expected != got
    e, g = float(expected), float(got)
    if math.isnan(e) or math.isnan(g):
        return math.isnan(e) != math.isnan(g)
    if math.isinf(e) or math.isinf(g):
        return e != g
    return abs(g - e) > atol + rtol * abs(e)


def tolerances(problem: Problem) -> tuple[float, float]:
    m = problem.mismatch
    return (m.rtol, m.atol) if m is not None else (0.0, 0.0)


def truthy(value: Any) -> bool:
    return bool(value) and not (isinstance(value, float) and math.isnan(value))


def num(value: Any, decimals: int = 3) -> str:
    """A number short enough for a table cell: fixed decimals, scientific when huge or tiny."""
    if isinstance(value, bool):
        return "T" if value else "F"
    if not is_number(value):
        return str(value)
    v = float(value)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v != 0 and (abs(v) >= 10 ** (7 - decimals) or abs(v) < 10 ** -decimals):
        return f"{v:.{max(decimals - 1, 1)}e}"
    text = f"{v:.{decimals}f}"
    return "0" if float(text) == 0 else text


def nums(expected: Any, got: Any, decimals: int = 3) -> tuple[str, str]:
    """An expected value and yours as `num` prints them, with as many more digits as it takes to
    see that they differ (-0.70711 / -0.70710, never -0.707 twice), both in the same style so that
    their digits line up."""
    a, b = num(expected, decimals), num(got, decimals)
    if a != b or not (is_number(expected) and is_number(got)) or isinstance(expected, bool) or isinstance(got, bool):
        return a, b
    x, y = float(expected), float(got)
    if x == y or not (math.isfinite(x) and math.isfinite(y)):
        return a, b
    scientific = "e" in a or "e" in b
    for digits in range(decimals + 1, decimals + 18):
        a, b = (f"{x:.{digits - 1}e}", f"{y:.{digits - 1}e}") if scientific else (f"{x:.{digits}f}", f"{y:.{digits}f}")
        if a != b:
            return a, b
    return repr(x), repr(y)


def align_points(cells: list[str], width: int = 0) -> list[str]:
    """Cells of one column, padded to one width so that their decimal points line up even when some
    carry more digits than the others (print them left-justified: a terminal table drops trailing
    spaces of right-justified cells). `width` is the least width, e.g. the column's header."""
    parts = [(c[:c.index(".")], c[c.index("."):]) if "." in c else (c, "") for c in cells]
    whole = max((len(w) for w, _ in parts), default=0)
    fraction = max((len(f) for _, f in parts), default=0)
    return [(w.rjust(whole) + f.ljust(fraction)).rjust(width) for w, f in parts]


def input_info(case: CaseResult, name: str) -> TensorInfo | None:
    return next((info for info in case.inputs if info.name == name), None)


def tensor_inputs(case: CaseResult) -> list[TensorInfo]:
    return [info for info in case.inputs if info.shape is not None and info.values is not None]


def scalar_inputs(case: CaseResult) -> list[TensorInfo]:
    return [info for info in case.inputs if info.shape is None and is_number(info.values)]


def index_text(index: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(i) for i in index) + "]"
