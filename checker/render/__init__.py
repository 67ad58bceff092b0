"""Turn a CheckResult into rich renderables. Results in, renderables out: no judging here.

Per-kind pictures (mask grids, RL timelines, scalar tables) live in sibling modules and are
picked by `checker.render.figures.figure_for`.
"""
from __future__ import annotations

from typing import Any, Iterable

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from checker.results import CaseResult, CheckResult, Problem, Status

STYLE = {Status.PASS: "bold green", Status.FAIL: "bold red", Status.ERROR: "bold yellow"}
WORD = {Status.PASS: "PASS", Status.FAIL: "FAIL", Status.ERROR: "ERROR"}
MAX_FAILURES = 3
MAX_PROBLEMS = 3  # problems shown in full per case (gradients of every parameter add up); -v shows all


def header(result: CheckResult) -> Text:
    text = Text()
    text.append("kata ", style="bold")
    text.append(f"{result.kata}", style="bold cyan")
    text.append(f" — {result.title}\n", style="bold")
    text.append(f"file {result.file} · device {result.device} · seed {result.seed}", style="dim")
    return text


def report(result: CheckResult, verbose: bool = False, max_failures: int = MAX_FAILURES) -> Group:
    parts: list[RenderableType] = [header(result), Text()]
    if not result.cases and result.message:
        parts.append(whole_file(result))
    else:
        failures = result.failures()
        shown = failures if verbose else failures[:max_failures]
        for case in shown:
            parts += [case_panel(case, result, verbose), Text()]
        if len(failures) > len(shown):
            parts.append(Text(f"… and {len(failures) - len(shown)} more failing case(s); -v shows them all.\n", style="dim"))
        if result.message:
            parts += [Text(result.message, style=STYLE[result.status]), Text()]
        parts.append(summary_table(result))
    if result.output.strip() and (verbose or not result.passed):
        parts += [Text(), Panel(Text(result.output.rstrip()[-1500:]), title="your code printed", border_style="dim")]
    if result.bench:
        parts.append(bench_line(result))
    parts.append(verdict_line(result))
    return Group(*parts)


def whole_file(result: CheckResult) -> RenderableType:
    body = Text(result.message, style=STYLE[result.status])
    if result.hint:
        body.append("\n\n" + result.hint, style="default")
    return Panel(body, title=f"[{STYLE[result.status]}]{WORD[result.status]}", border_style=STYLE[result.status].split()[-1])


def case_panel(case: CaseResult, result: CheckResult, verbose: bool = False) -> Panel:
    from checker.render.figures import figure_for

    body: list[RenderableType] = [Text(case.about, style="italic")]
    body.append(inputs_table(case))
    if case.error is not None:
        body.append(error_text(case))
    shown = case.problems if verbose else case.problems[:MAX_PROBLEMS]
    for problem in shown:
        figure = figure_for(result.kata, case, problem)
        body.append(problem_text(problem, listed=figure is None))
        if figure is not None:
            body.append(figure)
    rest = case.problems[len(shown):]
    if rest:
        names = ", ".join(p.item or p.kind for p in rest[:4]) + (", …" if len(rest) > 4 else "")
        body.append(Text(f"✗ {len(rest)} more: {names} (-v shows them)", style="red"))
    if case.mistake:
        line = Text("This looks like: ", style="bold magenta")
        line.append(case.mistake, style="magenta")
        if case.mistake_hint:
            line.append(f"\n  → {case.mistake_hint}")
        body.append(line)
    if case.reproduce:
        body.append(Text.assemble(("reproduce: ", "dim"), (case.reproduce, "bold")))
    title = f"[{STYLE[case.status]}]{WORD[case.status]}[/] {case.name}"
    return Panel(Group(*body), title=title, title_align="left", border_style=STYLE[case.status].split()[-1])


def inputs_table(case: CaseResult) -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(style="cyan", no_wrap=True)
    table.add_column()
    for info in case.inputs:
        if info.shape is None:
            table.add_row(info.name, f"{info.values!r}" if info.dtype != "device" else "the run device")
            continue
        described = f"{info.dtype} {list(info.shape)}"
        if info.values is not None and _count(info.shape) <= 16:
            described += f" = {_short(info.values)}"
        table.add_row(info.name, described)
    return table


def error_text(case: CaseResult) -> Text:
    error = case.error
    text = Text()
    if error.type == "NotImplementedError":
        text.append("not implemented yet: ", style="bold yellow")
        text.append(error.message or "it raises NotImplementedError")
        return text
    text.append(f"{error.type}: ", style="bold yellow")
    text.append(error.message)
    if error.traceback.strip():
        text.append("\n" + error.traceback.rstrip(), style="dim")
    return text


def problem_text(problem: Problem, listed: bool = True) -> Text:
    """The problem in one sentence, then the mismatch numbers; `listed=False` leaves out the first
    mismatching elements when a figure beside it shows them."""
    text = Text("✗ ", style="bold red")
    text.append(problem.message)
    m = problem.mismatch
    if m is not None and problem.kind in ("values", "nonfinite", "precision"):
        share = 100.0 * m.mismatched / max(m.total, 1)
        text.append(f"\n  mismatched elements: {m.mismatched} / {m.total} ({share:.1f}%)", style="dim")
        if m.rtol or m.atol:
            text.append(f"\n  greatest absolute difference: {m.max_abs:.6g} at index {m.max_abs_index} (atol {m.atol:g})", style="dim")
            text.append(f"\n  greatest relative difference: {m.max_rel:.6g} at index {m.max_rel_index} (rtol {m.rtol:g})", style="dim")
        for index, expected, got in m.first if listed else ():
            text.append(f"\n    at {index}: expected {_num(expected)}, got {_num(got)}")
    return text


def summary_table(result: CheckResult) -> Table:
    table = Table(title=None, show_edge=False, header_style="bold")
    table.add_column("family")
    table.add_column("cases", justify="right")
    table.add_column("passed", justify="right")
    for family, n, ok in result.families():
        style = "green" if ok == n else "red"
        table.add_row(family, str(n), f"[{style}]{ok}[/]")
    return table


def bench_line(result: CheckResult) -> Text:
    bench = result.bench or {}
    mine, ref = bench.get("yours_ms", 0.0), bench.get("reference_ms", 0.0)
    text = Text("\nbench: ", style="bold")
    text.append(f"your {result.kata}: {_ms(mine)}, reference: {_ms(ref)} on {result.device} ({bench.get('shape', '')})")
    if ref > 0 and mine / ref >= 2:
        text.append(f" — {mine / ref:.0f}× slower than the reference: is there a Python loop that could be a tensor op?", style="yellow")
    return text


def _ms(ms: float) -> str:
    return f"{ms:,.0f} ms" if ms >= 100 else f"{ms:.3g} ms"


def verdict_line(result: CheckResult) -> Text:
    passed = sum(c.status is Status.PASS for c in result.cases)
    total = len(result.cases)
    text = Text("\n")
    text.append(f" {WORD[result.status]} ", style=f"reverse {STYLE[result.status]}")
    if result.passed:
        text.append(f"  all {total} cases passed in {result.seconds:.2f} s")
    elif total:
        text.append(f"  {passed} of {total} cases passed")
        failing = result.failures()
        if failing and failing[0].reproduce:
            text.append(f" · first failure: {failing[0].reproduce}", style="dim")
    else:
        text.append("  no case ran")
    return text


def _count(shape: Iterable[int]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _short(values: Any) -> str:
    text = repr(_round(values))
    return text if len(text) <= 120 else text[:117] + "…"


def _round(values: Any) -> Any:
    if isinstance(values, list):
        return [_round(v) for v in values]
    if isinstance(values, float):
        return float(f"{values:.4g}")
    return values


def _num(value: Any) -> str:
    return f"{value:.6g}" if isinstance(value, float) else repr(value)
