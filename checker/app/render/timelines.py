"""RL outputs as timelines: t | reward | done | value | expected | yours | Δ.

Used whenever a case's inputs include rewards, dones and values and an output has their shape
([T], or [T, N] parallel envs: the first env that differs is shown). Advantage recursions run
backwards, so the step that locates the bug is the *latest* one that differs: everything before
it only inherits the error. That step is marked ◀, done steps read `done`, and long trajectories
are cropped around the marked step.
"""
from __future__ import annotations

from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.table import Table
from rich.text import Text

from checker.text.i18n import tr
from checker.app.render.values import (
    RL_INPUTS, align_points, differs, input_info, num, nums, pictured, shape_of, tolerances, truthy,
)
from checker.judge.results import CaseResult, Problem

CONTEXT = 6  # rows shown either side of the marked step in a long trajectory
MARK = "◀"


def timeline_item(case: CaseResult) -> Problem | None:
    """The output to draw as a timeline: of those with the trajectory's shape, the one that differs
    in the fewest steps (raw returns locate a bug better than normalised advantages, which all move)."""
    infos = [input_info(case, name) for name in RL_INPUTS]
    if any(info is None or info.values is None or info.shape is None for info in infos):
        return None
    shape = infos[0].shape
    if len(shape) not in (1, 2) or any(info.shape != shape for info in infos):
        return None
    candidates = [p for p in case.problems if pictured(p) and shape_of(p.expected) == shape == shape_of(p.got)]
    if not candidates:
        return None
    # A logic error before rounding noise; then the fewest differing steps; ties: the raw returns.
    return min(candidates, key=lambda p: (p.kind == "precision", sum(_bad_steps(p)), p.item != "returns"))


def _bad_steps(problem: Problem) -> list[bool]:
    rtol, atol = tolerances(problem)
    steps = []
    for e, g in zip(problem.expected, problem.got):
        if isinstance(e, list):
            steps.append(any(differs(a, b, rtol, atol) for a, b in zip(e, g)))
        else:
            steps.append(differs(e, g, rtol, atol))
    return steps


def timeline(case: CaseResult, problem: Problem) -> Group:
    rewards, dones, values = (input_info(case, name).values for name in RL_INPUTS)
    expected, got = problem.expected, problem.got
    rtol, atol = tolerances(problem)
    T = len(expected)
    title = Text(f"{problem.item}", style="bold")
    env = None
    if shape_of(expected) != (T,):  # [T, N]: one env's column
        N = len(expected[0])
        bad_envs = [n for n in range(N) if any(differs(expected[t][n], got[t][n], rtol, atol) for t in range(T))]
        env = bad_envs[0] if bad_envs else 0
        title.append(tr(", env {env}", env=env), style="bold")
        title.append(tr(" ({n} of {total} envs differ; the first shown)", n=len(bad_envs), total=N))
        column = lambda rows: [row[env] for row in rows]  # noqa: E731
        rewards, dones, values, expected, got = (column(x) for x in (rewards, dones, values, expected, got))
    bad = [differs(e, g, rtol, atol) for e, g in zip(expected, got)]
    origin = max((t for t in range(T) if bad[t]), default=None)
    if origin is None:
        return Group(title)
    rounding = problem.kind == "precision"  # no step holds a logic error: nothing to point at
    title.append(tr(" — {n} of {total} steps differ", n=sum(bad), total=T))
    if rounding:
        title.append(tr(", each by float32 rounding only"))

    start, stop = (0, T) if T <= 2 * CONTEXT + 3 else (max(0, origin - CONTEXT), min(T, origin + CONTEXT + 1))
    pairs = [nums(expected[t], got[t]) if bad[t] else (num(expected[t]), num(got[t])) for t in range(start, stop)]
    heads = {"t": "t", "reward": tr("reward"), "done": tr("done"), "value": tr("value"), "expected": tr("expected"),
             "yours": tr("yours"), "Δ": "Δ", "": ""}
    shown_expected = align_points([e for e, _ in pairs], cell_len(heads["expected"]))
    shown_got = align_points([g for _, g in pairs], cell_len(heads["yours"]))
    rows: list[tuple] = []  # one per table row: its cells, then its style
    if start > 0:
        rows.append((("…", "", "", "", "", "", "", tr("{n} earlier", n=start)), "dim"))
    for k, t in enumerate(range(start, stop)):
        done = truthy(dones[t])
        delta = _delta(expected[t], got[t])
        marked = t == origin and not rounding
        marker = ("✗" if bad[t] else "") + (f" {MARK}" if marked else "")
        rows.append(((
            str(t), num(rewards[t]), Text(heads["done"], style="bold yellow") if done else Text("·", style="dim"), num(values[t]),
            shown_expected[k], Text(shown_got[k], style="bold red" if bad[t] else ""),
            Text(delta, style="red" if bad[t] else "dim"), Text(marker, style="bold red" if bad[t] else ""),
        ), "bold" if marked else None))
    if stop < T:
        rows.append((("…", "", "", "", "", "", "", tr("{n} later", n=T - stop)), "dim"))
    last = input_info(case, "last_values")
    if stop == T and last is not None and last.values is not None:
        boot = last.values[env] if env is not None and isinstance(last.values, list) else last.values
        rows.append(((str(T), "", "", num(boot), "", "", "", "last_values"), "dim"))
    table = _Fitted(heads, rows, len(shown_expected[0]), len(shown_got[0]))
    if rounding:
        return Group(title, table, Text(tr(
            "No step holds a logic error: every difference is float32 rounding, spread over the steps. Keep the whole "
            "computation in float64: no .float(), and no constant made in float32 (torch.tensor(gamma) is float32)."),
            style="italic"))
    return Group(title, table, Text(_explain(origin, T, truthy(dones[origin]), origin + 1 < T and truthy(dones[origin + 1]),
                                             all(bad)), style="italic"))


class _Fitted:
    """The timeline's table, measured against the screen: where even its numbers do not fit, the Δ
    column goes (expected and yours show it); the notes column always gives way before a number."""

    def __init__(self, heads: dict[str, str], rows: list[tuple], expected_width: int, got_width: int):
        self.heads, self.rows, self.widths = heads, rows, {"expected": expected_width, "yours": got_width}

    def table(self, delta: bool = True) -> Table:
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="bold", collapse_padding=True)
        keep = [i for i, name in enumerate(self.heads) if delta or name != "Δ"]
        for name, head in self.heads.items():
            if name == "Δ" and not delta:
                continue
            if name in ("expected", "yours"):  # cells padded to one width, points lined up: print them as they are
                width = self.widths[name]
                head = " " * max(width - cell_len(head), 0) + head  # right-justified in cells, not characters
                table.add_column(head, justify="left", no_wrap=True, min_width=width)
                continue
            table.add_column(head, justify="left" if name in ("done", "") else "right", no_wrap=True,
                             min_width=max(cell_len(head), 1))
        for cells, style in self.rows:
            table.add_row(*(cells[i] for i in keep), style=style)
        for column in table.columns[:-1]:  # numbers are never cropped: on a narrow screen the notes column gives way
            column.min_width = max([column.min_width or 0] + [cell_len(c.plain if isinstance(c, Text) else str(c))
                                                              for c in column.cells])
        return table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = self.table()
        if console.measure(table, options=options.update_width(10_000)).minimum > options.max_width:
            table = self.table(delta=False)
        yield table


def _delta(expected: Any, got: Any) -> str:
    try:
        d = float(got) - float(expected)
    except (TypeError, ValueError):
        return ""
    text = num(d)
    return text if text.startswith("-") or text in ("NaN", "inf", "0") else "+" + text


def _explain(origin: int, T: int, done: bool, next_done: bool, everywhere: bool) -> str:
    if everywhere and origin == T - 1 and not done:
        return tr("every step differs, from t = {t} back: look at the last step (what comes after it?) and at any "
                  "normalisation", t=T - 1)
    where = tr("{mark} t = {t} is the latest step that differs; the steps before it inherit the error.", mark=MARK, t=origin)
    if done:
        where += tr(" Step {t} is a done: what flows back into it from step {next} must be cut.", t=origin, next=origin + 1)
    elif next_done:
        where += tr(" Step {next} is a done: does its done cut step {t}'s future instead of its own?", t=origin,
                    next=origin + 1)
    elif origin == T - 1:
        where += tr(" It is the last step: nothing comes after it unless the kata bootstraps.")
    return where
