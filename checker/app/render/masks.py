"""Masks as pictures, and the rows of a tensor that differ (attention weights beside their mask row).

A bool mask is drawn three times side by side — expected, yours, difference — one character per
cell, so an off-by-one diagonal, a swapped tril/triu or a missing start_pos offset shows at a
glance. Differing cells are red in colour and `+`/`-` in the difference grid, which reads the
same with NO_COLOR. Both figures measure the width they are given and crop to fit.
"""
from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from checker.text.i18n import plural, tr

from checker.app.render.values import (
    at, broadcast_at, broadcastable, differs, index_text, indices, input_info, num, nums, shape_of, tensor_inputs,
    tolerances, truthy,
)
from checker.judge.results import CaseResult, Problem

TRUE, FALSE = "■", "·"
EXTRA, MISSING = "+", "-"  # True only in yours / True only in the expected mask
BAD = "✗"
GAP = 3
MAX_GRID_ROWS = 16
MAX_ROWS = 3  # differing rows shown in full by the rows figure


class MaskFigure:
    """Expected, yours and the difference of a bool tensor, cropped around the first difference."""

    def __init__(self, item: str, expected: Any, got: Any):
        shape = shape_of(expected)
        if len(shape) == 1:
            expected, got, shape = [expected], [got], (1, *shape)
        lead = list(indices(shape[:-2]))
        differing = [ix for ix in lead if at(expected, ix) != at(got, ix)]
        self.item, self.shape = item, shape
        self.where = differing[0] if differing else lead[0]
        self.n_slices, self.n_differing = len(lead), len(differing)
        self.expected, self.got = at(expected, self.where), at(got, self.where)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        exp, got = self.expected, self.got
        R, C = len(exp), len(exp[0]) if exp else 0
        diffs = [(i, j) for i in range(R) for j in range(C) if exp[i][j] != got[i][j]]
        r0, c0 = diffs[0] if diffs else (0, 0)
        rw = len(str(max(R - 1, 0)))
        width = max(options.max_width, 20)
        side = (width - 2 * GAP) // 3 - rw - 1
        side_by_side = side >= min(C, 8)
        ncols = max(1, min(C, side if side_by_side else width - rw - 1))
        nrows = min(R, MAX_GRID_ROWS)
        c_start, r_start = _window(c0, C, ncols), _window(r0, R, nrows)
        rows, cols = range(r_start, r_start + nrows), range(c_start, c_start + ncols)

        yield self._caption(R, C, rows, cols, diffs)
        grids = [
            (tr("expected"), _grid(exp, rows, cols, rw, lambda i, j: _cell(exp[i][j], False))),
            (tr("yours"), _grid(got, rows, cols, rw, lambda i, j: _cell(got[i][j], exp[i][j] != got[i][j]))),
            (tr("difference"), _grid(got, rows, cols, rw, lambda i, j: _diff(exp[i][j], got[i][j]))),
        ]
        if side_by_side:
            blocks = [[Text(title, style="bold")] + lines for title, lines in grids]
            widths = [max(line.cell_len for line in block) for block in blocks]  # cells: a Chinese title is two per character
            for k in range(max(len(block) for block in blocks)):
                line = Text()
                for n, (block, w) in enumerate(zip(blocks, widths)):
                    part = block[k] if k < len(block) else Text()
                    line.append_text(part)
                    if n < len(blocks) - 1:
                        line.append(" " * (w - part.cell_len + GAP))
                yield line
        else:
            for title, lines in grids:
                yield Text(title, style="bold")
                yield from lines
        yield Text.assemble((TRUE, ""), " True  ", (FALSE, "dim"), " False   ", (EXTRA, "bold red"),
                            " " + tr("True only in yours") + "  ", (MISSING, "bold red"),
                            " " + tr("True only in the expected mask"), style="dim")
        for line in _patterns(exp, got, diffs):
            yield Text(line, style="italic")

    def _caption(self, R: int, C: int, rows: range, cols: range, diffs: list[tuple[int, int]]) -> Text:
        text = Text(f"{self.item}", style="bold")
        if len(self.shape) > 2:
            dims = "×".join(str(n) for n in self.shape[:-2])
            text.append(index_text(self.where), style="bold")
            if self.n_differing:
                text.append(tr(": the first of {n} differing slices (of {dims})", n=self.n_differing, dims=dims))
            else:
                text.append(tr(" (of {dims})", dims=dims))
        text.append(tr(" — {n} of {total} cells differ", n=len(diffs), total=R * C))
        if diffs:
            text.append(tr(", the first at {index}", index=index_text(diffs[0])))
        if len(rows) < R or len(cols) < C:
            text.append("\n" + tr("showing rows {first_row}–{last_row} of {rows}, columns {first_column}–{last_column} of "
                                  "{columns}", first_row=rows.start, last_row=rows.stop - 1, rows=R,
                                  first_column=cols.start, last_column=cols.stop - 1, columns=C), style="dim")
        return text


def _window(first: int, n: int, size: int) -> int:
    """Where a window of `size` starts so that it shows `first` with a little context before it."""
    if n <= size:
        return 0
    return max(0, min(first - size // 4, n - size))


def _grid(values: Any, rows: range, cols: range, rw: int, cell: Any) -> list[Text]:
    digits = len(str(cols.stop - 1))
    lines = [Text(" " * (rw + 1) + "".join(str(c).rjust(digits)[k] for c in cols), style="dim") for k in range(digits)]
    for i in rows:
        line = Text(str(i).rjust(rw) + " ", style="dim")
        for j in cols:
            glyph, style = cell(i, j)
            line.append(glyph, style=style)
        lines.append(line)
    return lines


def _cell(value: bool, wrong: bool) -> tuple[str, str]:
    glyph = TRUE if value else FALSE
    return glyph, "bold red" if wrong else ("" if value else "dim")


def _diff(expected: bool, got: bool) -> tuple[str, str]:
    if expected == got:
        return FALSE, "dim"
    return (EXTRA if got else MISSING), "bold red"


def _patterns(exp: Any, got: Any, diffs: list[tuple[int, int]]) -> list[str]:
    """Name the shape of the difference when it has a simple one."""
    if not diffs:
        return []
    lines = []
    extra = sum(1 for i, j in diffs if got[i][j])
    lines.append(plural(extra, "{n} cell True only in yours, {missing} True only in the expected mask",
                        "{n} cells True only in yours, {missing} True only in the expected mask", missing=len(diffs) - extra))
    offsets = {j - i for i, j in diffs}
    if len(offsets) == 1:
        d = offsets.pop()
        where = "j = i" if d == 0 else (f"j = i + {d}" if d > 0 else f"j = i - {-d}")
        lines.append(tr("every difference lies on one diagonal: {where}", where=where))
    else:
        shift = _shift(exp, got, diffs)
        if shift > 0:
            lines.append(plural(shift, "yours looks like the expected mask shifted {n} column to the left: an offset of {n} "
                                "missing or extra?", "yours looks like the expected mask shifted {n} columns to the left: an "
                                "offset of {n} missing or extra?"))
        elif shift < 0:
            lines.append(plural(-shift, "yours looks like the expected mask shifted {n} column to the right: an offset of {n} "
                                "missing or extra?", "yours looks like the expected mask shifted {n} columns to the right: an "
                                "offset of {n} missing or extra?"))
    R, C = len(exp), len(exp[0])
    if R == C and R > 1 and all(got[i][j] == exp[j][i] for i in range(R) for j in range(C)):
        lines.append(tr("yours is the expected mask transposed (upper vs lower triangle?)"))
    return lines


# ---------------------------------------------------------------- rows that differ


def rows_figure(case: CaseResult, problem: Problem) -> "RowsFigure | None":
    shape = shape_of(problem.expected)
    if not shape:
        return None
    beside = None
    row_word, col_word = "row", "j"
    mask = input_info(case, "mask")
    if "weights" in problem.item:
        row_word, col_word = "query", "key"
        if mask is not None and mask.values is not None and mask.shape and broadcastable(mask.shape, shape):
            beside = ("mask", mask.values, True)
    else:
        tensors = tensor_inputs(case)
        if len(tensors) == 1 and tensors[0].shape == shape:
            beside = (tensors[0].name, tensors[0].values, False)
            if tensors[0].name == "rewards":
                row_word, col_word = "group", "completion"
    axis = len(shape) - 1
    dim = next((i.values for i in case.inputs if i.name in ("dim", "axis") and i.shape is None), None)
    if isinstance(dim, int) and not isinstance(dim, bool) and -len(shape) <= dim < len(shape):
        axis = dim % len(shape)  # the slices the function works along
        if axis != len(shape) - 1 and row_word == "row":
            row_word = "slice"
    rtol, atol = tolerances(problem)
    return RowsFigure(problem.item or "output", problem.expected, problem.got, rtol, atol, beside, row_word, col_word, axis)


class RowsFigure:
    """The rows (last-dim slices) that differ: expected and yours, with a related input row beside them."""

    def __init__(self, item: str, expected: Any, got: Any, rtol: float, atol: float,
                 beside: tuple[str, Any, bool] | None, row_word: str = "row", col_word: str = "j", axis: int = -1):
        self.item, self.rtol, self.atol = item, rtol, atol
        self.beside, self.row_word, self.col_word = beside, row_word, col_word
        shape = shape_of(expected)
        self.axis = axis % len(shape)
        self.n = shape[self.axis]
        self.rows = []  # (index without the axis, expected row, got row, bad cells)
        total = 0
        for ix in indices(shape[:self.axis] + shape[self.axis + 1:]):
            total += 1
            e, g = [at(expected, self.full(ix, j)) for j in range(self.n)], [at(got, self.full(ix, j)) for j in range(self.n)]
            bad = [differs(a, b, rtol, atol) for a, b in zip(e, g)]
            if any(bad):
                self.rows.append((ix, e, g, bad))
        self.total = total

    def full(self, ix: tuple[int, ...], j: int) -> tuple[int, ...]:
        return (*ix[:self.axis], j, *ix[self.axis:])

    def label(self, ix: tuple[int, ...]) -> str:
        if self.axis == len(ix):
            return index_text(ix) if ix else ""
        return "[" + ", ".join(":" if k == self.axis else str(i) for k, i in enumerate(self.full(ix, -1))) + "]"

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        shown = self.rows[:MAX_ROWS]
        head = Text(f"{self.item}", style="bold")
        if self.total > 1:
            head.append(tr(": {n} of {total} {rows} differ", n=len(self.rows), total=self.total, rows=_nouns(self.row_word)))
            if len(self.rows) > len(shown):
                head.append(tr("; the first {n}", n=len(shown)))
        yield head
        dead = False
        expected, yours, col = tr("expected"), tr("yours"), _noun(self.col_word)
        labels = [expected, yours] + ([self.beside[0]] if self.beside else [])
        lw = max(cell_len(s) for s in labels + [col]) + 2  # cells: a Chinese label is two per character
        width = max(options.max_width, 30)
        for ix, e, g, bad in shown:
            side = [broadcast_at(self.beside[1], self.full(ix, j)) for j in range(self.n)] if self.beside else None
            # each differing pair with the digits it takes to see the difference, in one style
            cells = [nums(a, b) if wrong else (num(a), num(b)) for a, b, wrong in zip(e, g, bad)]
            cw = max(len(c) for pair in cells for c in pair) + 2
            if side is not None and not self.beside[2]:
                cw = max(cw, max(len(num(v)) for v in side) + 2)
            ncols = max(1, min(self.n, (width - lw) // cw))
            first = bad.index(True)
            start = _window(first, self.n, ncols)
            cols = range(start, start + ncols)
            title = Text(f"{_noun(self.row_word)} {self.label(ix)}".rstrip(), style="bold")
            if len(cols) < self.n:
                what = tr("columns") if self.col_word == "j" else _nouns(self.col_word)
                title.append(tr("  ({what} {first}–{last} of {n})", what=what, first=cols.start, last=cols.stop - 1,
                                n=self.n), style="dim")
            if side is not None and self.beside[2] and not any(truthy(m) for m in side):
                title.append(tr("  every {col} masked", col=col), style="yellow")
                dead = True
            if any(c in ("NaN", "inf", "-inf") for _, c in cells):
                title.append(tr("  NaN/inf in yours"), style="bold red")
            yield title
            yield Text(_pad(col, lw) + "".join(str(j).rjust(cw - 1) + " " for j in cols), style="dim")
            if side is not None:
                line = Text(_pad(self.beside[0], lw), style="cyan")
                for j in cols:
                    if self.beside[2]:
                        line.append((TRUE if truthy(side[j]) else FALSE).rjust(cw - 1) + " ", style="" if truthy(side[j]) else "dim")
                    else:
                        line.append(num(side[j]).rjust(cw - 1) + " ")
                yield line
            line = Text(_pad(expected, lw))
            for j in cols:
                line.append(cells[j][0].rjust(cw - 1) + " ")
            yield line
            line = Text(_pad(yours, lw))
            for j in cols:
                line.append(cells[j][1].rjust(cw - 1) + (BAD if bad[j] else " "), style="bold red" if bad[j] else "")
            yield line
        if self.rtol == 0 and self.atol == 0:  # integers, booleans: compared exactly, no tolerance to be out of
            legend = Text(tr("{bad} differs (compared exactly)", bad=BAD), style="dim")
        else:
            legend = Text(tr("{bad} out of tolerance (rtol {rtol:g}, atol {atol:g})", bad=BAD, rtol=self.rtol,
                             atol=self.atol), style="dim")
        if self.beside and self.beside[2]:
            legend.append(tr("; mask {attend} may attend, {masked} masked", attend=TRUE, masked=FALSE))
        if dead:
            legend.append("\n" + tr("a row with every {col} masked may be all zeros or uniform, never NaN", col=col))
        yield legend


def _pad(text: str, width: int) -> str:
    """`text` left-justified in `width` terminal cells (str.ljust counts a Chinese character as one)."""
    return text + " " * max(width - cell_len(text), 0)


def _noun(word: str) -> str:
    """A row or column word of the rows figure, in the language kata speaks ("j" is an index: it stays)."""
    return {"row": tr("row"), "slice": tr("slice"), "query": tr("query"), "key": tr("key"), "group": tr("group"),
            "completion": tr("completion")}.get(word, word)


def _nouns(word: str) -> str:
    """Its plural."""
    return {"row": tr("rows"), "slice": tr("slices"), "query": tr("queries"), "key": tr("keys"), "group": tr("groups"),
            "completion": tr("completions")}.get(word, word + "s")


def _shift(exp: Any, got: Any, diffs: list[tuple[int, int]]) -> int:
    """The smallest s with got[i][j] == exp[i][j + s] wherever j + s is a column (|s| at most half the width)."""
    R, C = len(exp), len(exp[0])
    for s in sorted((s for s in range(-C + 1, C) if s), key=lambda s: (abs(s), s < 0)):
        if 2 * abs(s) > C or not any(0 <= j + s < C for _, j in diffs):
            continue
        if all(got[i][j] == exp[i][j + s] for i in range(R) for j in range(C) if 0 <= j + s < C):
            return s
    return 0
