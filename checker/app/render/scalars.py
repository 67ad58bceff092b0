"""A scalar output (a loss): expected, yours, the difference, and the case's parameters.

Parameters are the case's number arguments (ε, β, γ, …) and, when the case has a mask input, the
number of valid tokens per row — a per-completion mean and a token-level mean differ exactly
when those lengths differ.
"""
from __future__ import annotations

import math
from rich.table import Table
from rich.text import Text

from checker.text.i18n import tr
from checker.app.render.values import input_info, is_number, num, nums, scalar_inputs, shape_of, truthy
from checker.judge.results import CaseResult, Problem

SYMBOLS = {"clip_epsilon": "ε", "kl_beta": "β", "gamma": "γ", "lam": "λ", "dropout_p": "p", "eps": "ε", "beta": "β"}


def scalar_table(case: CaseResult, problem: Problem) -> Table:
    expected, got = float(problem.expected), float(problem.got)
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(justify="right", no_wrap=True)
    table.add_column(style="dim")
    item = problem.item or "value"  # an item name, as the rest of the report names it
    shown_expected, shown_got = nums(expected, got, 6)
    table.add_row(tr("{item} expected", item=item), shown_expected, "")
    table.add_row(tr("{item} yours", item=item), Text(shown_got, style="bold red"), "")
    table.add_row(tr("difference"), _signed(got - expected), _relation(expected, got))
    for info in scalar_inputs(case):
        symbol = SYMBOLS.get(info.name)
        table.add_row(f"{symbol} ({info.name})" if symbol else info.name, num(info.values, 4), "")
    lengths = mask_lengths(case)
    if lengths is not None:
        table.add_row(tr("mask lengths"), " ".join(str(n) for n in lengths),
                      tr("valid tokens per row") + (tr(" (unequal: a mean per row ≠ a mean per token)")
                                                    if len(set(lengths)) > 1 else ""))
    return table


def mask_lengths(case: CaseResult) -> list[int] | None:
    mask = input_info(case, "mask")
    if mask is None or mask.values is None or len(shape_of(mask.values)) != 2:
        return None
    return [sum(1 for v in row if truthy(v)) for row in mask.values]


def _signed(d: float) -> str:
    text = num(d, 6)
    return text if text.startswith("-") or not is_number(d) or math.isnan(d) or text == "0" else "+" + text


def _relation(expected: float, got: float) -> str:
    if not (math.isfinite(expected) and math.isfinite(got)):
        return ""
    if expected != 0 and abs(got + expected) <= 1e-6 * max(1.0, abs(expected)):
        return tr("yours has the opposite sign")
    if expected != 0:
        ratio = f"{got / expected:.4g}"
        if ratio in ("1", "-1") and got != expected:  # as many digits as it takes to show the ratio is not 1
            ratio = next((r for r in (f"{got / expected:.{d}g}" for d in range(5, 18)) if r not in ("1", "-1")), ratio)
        return tr("yours is {ratio} × expected", ratio=ratio)
    return ""
