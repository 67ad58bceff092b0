"""A sampler's draws against the distribution they should follow, as a text picture: the most likely
tokens (and any token drawn far more often than it should be), each with its expected and observed
frequency as a number and a bar, then the rest together. Plain text (it reads the same in a pipe),
at most 60 columns, from plain Python values.

      token  expected             yours
         12  0.412 ████████▏      0.198 ███▉
          3  0.231 ████▋          0.402 ████████
       rest  0.357 ███████▏       0.400 ████████
"""
from __future__ import annotations

from rich.cells import cell_len

from checker.text.i18n import tr

SHOWN = 6  # token rows before "rest"
BAR = 12  # cells of the longest bar
_EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(value: float, top: float, width: int = BAR) -> str:
    """A bar of `value` where `top` fills `width` cells, in eighths of a cell."""
    if top <= 0 or value <= 0:
        return ""
    eighths = max(1, round(value / top * width * 8))
    full, part = divmod(eighths, 8)
    return "█" * full + (_EIGHTHS[part] if part else "")


def frequency_picture(expected: list[float], observed: list[float]) -> str:
    """Lines (each starting with two spaces) comparing one row's expected probabilities with the observed
    frequencies of its draws."""
    V = len(expected)
    by_expected = sorted(range(V), key=lambda j: -expected[j])
    by_excess = sorted(range(V), key=lambda j: -(observed[j] - expected[j]))
    chosen = [j for j in by_expected[:SHOWN - 2] if expected[j] > 0]
    chosen += [j for j in by_excess if j not in chosen and observed[j] > expected[j]][:SHOWN - len(chosen)]
    chosen = sorted(chosen, key=lambda j: (-expected[j], -observed[j]))[:SHOWN]
    rest = [j for j in range(V) if j not in chosen]
    rows = [(str(j), expected[j], observed[j]) for j in chosen]
    if rest:
        rows.append((tr("rest"), sum(expected[j] for j in rest), sum(observed[j] for j in rest)))
    top = max(max(e, o) for _, e, o in rows) if rows else 1.0
    labels = [tr("token"), tr("expected"), tr("yours")]
    w0 = max(5, cell_len(labels[0]), *(cell_len(name) for name, _, _ in rows))
    w1 = max(6 + BAR, cell_len(labels[1]))
    lines = ["  " + _rjust(labels[0], w0) + "  " + _pad(labels[1], w1) + "  " + labels[2]]
    for name, e, o in rows:
        lines.append("  " + _rjust(name, w0) + "  " + _pad(f"{e:.3f} {bar(e, top)}", w1) + "  " +
                     f"{o:.3f} {bar(o, top)}".rstrip())
    return "\n".join(line.rstrip() for line in lines)


def _rjust(text: str, width: int) -> str:
    return " " * max(0, width - cell_len(text)) + text


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - cell_len(text))
