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

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from rich.text import Text

from checker.text.i18n import tr
from checker.app.render.masks import MaskFigure, rows_figure
from checker.app.render.scalars import scalar_table
from checker.app.render.timelines import timeline, timeline_item
from checker.app.render.values import flat, is_number, pictured, shape_of, size
from checker.judge.results import CaseResult, Problem


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
        return scalar_table(case, problem)
    if shape_of(expected) != shape_of(got) or size(shape_of(expected)) == 0:
        return None
    if all(isinstance(v, bool) for v in flat(expected)) and all(isinstance(v, bool) for v in flat(got)):
        return MaskFigure(problem.item or "mask", expected, got)
    chosen = timeline_item(case)
    if chosen is not None:
        if chosen is problem:
            return timeline(case, problem)
        where = "below" if case.problems.index(chosen) > case.problems.index(problem) else "above"
        if chosen.kind == "precision":  # rounding noise has no step to locate
            shows = tr("  the {item} timeline below shows it", item=chosen.item) if where == "below" else tr(
                "  the {item} timeline above shows it", item=chosen.item)
            return Text(shows, style="dim")
        shows = tr("  the {item} timeline below locates it", item=chosen.item) if where == "below" else tr(
            "  the {item} timeline above locates it", item=chosen.item)
        return Text(shows, style="dim")
    return rows_figure(case, problem) if rows_item(case) is problem else None


def rows_item(case: CaseResult) -> Problem | None:
    """One row picture per case: the attention weights when they differ, else the first float item."""
    candidates = [p for p in case.problems if pictured(p) and size(shape_of(p.expected)) > 1
                  and shape_of(p.expected) == shape_of(p.got) and not all(isinstance(v, bool) for v in flat(p.expected))]
    weights = [p for p in candidates if "weights" in p.item]
    return (weights or candidates or [None])[0]
