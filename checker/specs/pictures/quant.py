"""int8-quant's differing codes as a small table: the element (its index holds the channel), x, x / scale
with the expected scale (plus the expected zero_point, asymmetric), the expected q and the learner's. A few
lines, 60 columns at most, plain text (it reads the same in a pipe), from plain Python values.

      element          x  x / expected scale  expected  yours
      [0, 0]    0.937641             41.9134        42     41
"""
from __future__ import annotations

from rich.cells import cell_len

from checker.text.i18n import tr


def q_table(rows: list[tuple[tuple[int, ...], float, float, int, int]], zero_point: bool = False) -> str:
    """rows: (index, x, x / scale (+ zero_point when `zero_point`), expected q, your q): what the
    expected q rounds, so the two can be read side by side. Lines each starting with two spaces."""
    # the middle column is computed from the expected scale and zero point, not from yours: its head says so
    heads = [tr("element"), "x", tr("x / expected scale + zp") if zero_point else tr("x / expected scale"),
             tr("expected"), tr("yours")]
    cells = [[str(list(index)), f"{x:.6g}", f"{v:.4f}", str(e), str(g)] for index, x, v, e, g in rows]
    widths = [max(cell_len(h), *(cell_len(r[i]) for r in cells)) for i, h in enumerate(heads)]
    def line(values: list[str]) -> str:  # the element left-aligned, the numbers right-aligned
        parts = [_pad(v, w) if i == 0 else _rjust(v, w) for i, (v, w) in enumerate(zip(values, widths))]
        return ("  " + "  ".join(parts)).rstrip()

    return "\n".join([line(heads)] + [line(r) for r in cells])


def _rjust(text: str, width: int) -> str:
    return " " * max(0, width - cell_len(text)) + text


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - cell_len(text))
