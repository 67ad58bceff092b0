"""int8-quant's differing codes as a small table: the element, its channel (per-channel), x, x / scale
with the expected scale, the expected q and the learner's. A few lines, 60 columns at most, plain text
(it reads the same in a pipe), from plain Python values.

    element      x           x / scale   expected  yours
    [0, 3]       0.27341     7.0836            7      7 ...
"""
from __future__ import annotations

from rich.cells import cell_len

from checker.i18n import tr


def q_table(rows: list[tuple[tuple[int, ...], int, float, float, int, int]], per_channel: bool) -> str:
    """rows: (index, channel, x, x / scale, expected q, your q). Lines each starting with two spaces."""
    heads = [tr("element")] + ([tr("channel")] if per_channel else []) + [
        "x", tr("x / scale"), tr("expected"), tr("yours")]
    cells = [[str(list(index))] + ([str(c)] if per_channel else []) + [f"{x:.6g}", f"{v:.4f}", str(e), str(g)]
             for index, c, x, v, e, g in rows]
    widths = [max(cell_len(h), *(cell_len(r[i]) for r in cells)) for i, h in enumerate(heads)]
    left = 2 if per_channel else 1  # the element (and channel) columns are left-aligned, numbers right-aligned

    def line(values: list[str]) -> str:
        parts = [_pad(v, w) if i < left else _rjust(v, w) for i, (v, w) in enumerate(zip(values, widths))]
        return ("  " + "  ".join(parts)).rstrip()

    return "\n".join([line(heads)] + [line(r) for r in cells])


def _rjust(text: str, width: int) -> str:
    return " " * max(0, width - cell_len(text)) + text


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - cell_len(text))
