"""Turn a CheckResult into rich renderables. Results in, renderables out: no judging here.

A report leads with the verdict and the mistake it looks like, then the first failure in full
(its picture locates the bug), then one line per other reason cases failed ("the same in 86 more
cases"), the failing families, and the command that reproduces the first failure on a line of
its own. A pass is one line. `-v` shows every failing case in full. Per-kind pictures (mask
grids, RL timelines, scalar tables) live in sibling modules, picked by `figures.figure_for`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from checker.text.i18n import plural, tr
from checker.text import cjk
from checker.judge.results import CaseResult, CheckResult, Problem, Status

cjk.install()  # a line of Chinese may break between characters

STYLE = {Status.PASS: "bold green", Status.FAIL: "bold red", Status.ERROR: "bold yellow"}
MAX_PANELS = 2  # failure reasons shown in full; -v shows every failing case
MAX_PROBLEMS = 3  # problems shown in full per case (gradients of every parameter add up); -v shows all
MAX_NAMES = 4  # case names listed per reason
OUTPUT_LINES = 12  # lines of the learner's printing shown


def word(status: Status) -> str:
    return {Status.PASS: tr("PASS"), Status.FAIL: tr("FAIL"), Status.ERROR: tr("ERROR")}[status]


@dataclass(frozen=True)
class Report:
    """A report in three parts, so a screen too short for it can crop the middle and keep both ends."""

    top: list[RenderableType]  # header, verdict, the mistake it looks like
    body: list[RenderableType]  # the failures in full, the other reasons, families, printing
    bottom: list[RenderableType]  # the command that reproduces it, what next

    def group(self) -> Group:
        return Group(*self.top, *self.body, *self.bottom)

    def __rich__(self) -> Group:
        return self.group()


def header(result: CheckResult) -> Text:
    text = Text()
    text.append("kata ", style="bold")
    text.append(result.kata, style="bold cyan")
    text.append(f" — {result.title}\n", style="bold")
    text.append(f"{result.file} · {result.device} · {tr('seed')} {result.seed}", style="dim")
    return text


def report(result: CheckResult, verbose: bool = False, after: RenderableType | None = None) -> Report:
    """The whole report; `after` is what to do next, shown under a pass."""
    if result.passed:
        top = [verdict_line(result)]
        if result.note:  # how it was checked (a kernel kata: under Triton's interpreter, no GPU pass)
            top.append(Text(result.note, style="dim"))
        if result.convention:
            top.append(Text(result.convention, style="green"))
        if result.bench:
            top.append(bench_line(result))
        return Report(top, [], [after] if after is not None else [])
    top: list[RenderableType] = [header(result), verdict_line(result)]
    if result.note:
        top.append(Text(result.note, style="dim"))
    if result.convention:  # several right conventions: the nearest, and the first case it leaves
        top.append(Text(result.convention, style="yellow"))
    body: list[RenderableType] = []
    bottom: list[RenderableType] = []
    if not result.cases:
        body.append(whole_file(result))
    else:
        groups = reasons(result.failures())
        headline = _headline(groups)
        if headline is not None:
            top.append(headline)
        shown = [case for _, cases in groups for case in cases] if verbose else [cases[0] for _, cases in groups[:MAX_PANELS]]
        for case in shown:
            body.append(case_panel(case, result, verbose, with_mistake=headline is None or verbose))
            if verbose and case.reproduce:
                body.append(command_line(case.reproduce))
        if not verbose:
            body += _other_reasons(groups)
        families = failing_families(result)
        if families is not None:
            body.append(families)
        if result.message:
            body.append(Text(result.message, style=STYLE[result.status]))
        first = next((c for c in result.failures() if c.reproduce), None)
        if first is not None:
            bottom += [Text(tr("Reproduce the first failure:"), style="dim"), command_line(first.reproduce)]
    if result.output.strip():
        body.append(printed(result.output, result.printed_in))
    if after is not None:
        bottom.append(after)
    return Report(top, body, bottom)


def brief(result: CheckResult) -> list[RenderableType]:
    """The first failure for a screen too short for the whole report: its panel without the inputs, so the
    first ✗ comes right under the case's title (the reproduce command recreates the inputs)."""
    failures = result.failures()
    if result.passed or not failures:
        return []
    return [case_panel(failures[0], result, with_mistake=False, with_inputs=False)]


def whole_command(result: CheckResult) -> str | None:
    """The command that prints this whole report: the first failure's reproduce line without its --case."""
    first = next((case for case in result.failures() if case.reproduce), None)
    return re.sub(r" --case \S+", "", first.reproduce) if first is not None else None


def command_line(command: str) -> Text:
    """A command on a line of its own, never wrapped: print it with soft_wrap (copy-paste runs it whole)."""
    return Text("  " + command, style="bold", no_wrap=True, overflow="ignore")


# ---------------------------------------------------------------- grouping failures by reason


def reason(case: CaseResult) -> tuple:
    """Cases failed the same way when the same kinds of problem hit the same items (or the same
    exception was raised). Whether a known mistake was named on some of them does not split them."""
    if case.error is not None:
        return ("error", case.error.type)
    return ("problems", tuple(sorted({(p.kind, p.item) for p in case.problems})))


def reasons(failures: Iterable[CaseResult]) -> list[tuple[tuple, list[CaseResult]]]:
    groups: dict[tuple, list[CaseResult]] = {}
    for case in failures:
        groups.setdefault(reason(case), []).append(case)
    return list(groups.items())


def _headline(groups: list[tuple[tuple, list[CaseResult]]]) -> Text | None:
    """"This looks like: …" once, on top, when the first reason's cases name a known mistake."""
    named = [case for case in groups[0][1] if case.mistake] if groups else []
    return mistake_text(named[0]) if named else None


def mistake_text(case: CaseResult) -> Text:
    """"This looks like: <the mistake>" and its fix: the one place a report names a mistake (headline and panels)."""
    line = Text(tr("This looks like: "), style="bold magenta")
    line.append(case.mistake or "", style="magenta")
    if case.mistake_hint:
        line.append("\n  → ")
        line.append(case.mistake_hint)
    return line


class NameLine:
    """`head` and then as many of `names` (at most MAX_NAMES) as fit on one line of the screen, "…" for the
    rest, then `tail`: one line per reason, whatever the width (the first name is always shown)."""

    def __init__(self, head: str, names: list[str], tail: str = "", style: str = "dim"):
        self.head, self.names, self.tail, self.style = head, names, tail, style

    def text(self, keep: int, tail: bool = True) -> Text:
        shown = ", ".join(self.names[:keep]) + (", …" if keep < len(self.names) else ".")
        return Text(self.head + shown + (" " + self.tail if self.tail and tail else ""), style=self.style)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        keep = min(len(self.names), MAX_NAMES)
        while keep > 1 and self.text(keep).cell_len > options.max_width:
            keep -= 1
        # "(-v shows them)" is the first thing a narrow screen can do without
        yield self.text(keep, tail=self.text(keep).cell_len <= options.max_width)


MAX_OTHER_LINES = 5  # "the same in …" lines under the panels, in all
MAX_FAMILY_NAMES = 4  # passing families named in "all 28 but …"


def _other_reasons(groups: list[tuple[tuple, list[CaseResult]]]) -> list[RenderableType]:
    """The failing cases not shown in full, in at most MAX_OTHER_LINES lines: those failing like a panel
    shown above ("The same in 12 more cases"), then the rest by the mistake named on them ("The same mistake
    in 92 more cases"), then whatever is left by family ("12 more cases in 3 families: …"). Which outputs
    differ (out of call 2, grad of x, …) splits one mistake into many groups: it is not a reason to list."""
    lines: list[RenderableType] = []
    for _, cases in groups[:MAX_PANELS]:
        if len(cases) > 1:
            lines.append(NameLine(plural(len(cases) - 1, "Failing like {case} above, {n} more case: ",
                                         "Failing like {case} above, {n} more cases: ", case=cases[0].name),
                                  [case.name for case in cases[1:]]))
    rest = [case for _, cases in groups[MAX_PANELS:] for case in cases]
    if not rest:
        return lines
    headline = next((case.mistake for case in groups[0][1] if case.mistake), None)
    by_mistake: dict[str, list[CaseResult]] = {}
    for case in rest:
        if case.mistake:
            by_mistake.setdefault(case.mistake, []).append(case)
    unnamed = [case for case in rest if not case.mistake]
    mistakes = sorted(by_mistake.items(), key=lambda item: item[0] != headline)  # the headline's first
    room = MAX_OTHER_LINES - len(lines) - (1 if unnamed else 0)
    for mistake, cases in mistakes[room:]:  # no line left for it: it goes with the unnamed ones
        unnamed += cases
    for mistake, cases in mistakes[:room]:
        if mistake == headline:
            said = plural(len(cases), "The same mistake in {n} more case: ", "The same mistake in {n} more cases: ")
        else:
            said = plural(len(cases), "{n} more case looks like {mistake}: ", "{n} more cases look like {mistake}: ",
                          mistake=mistake)
        lines.append(NameLine(said, [case.name for case in cases]))
    if unnamed:
        lines.append(_by_family(unnamed))
    return lines


def _by_family(cases: list[CaseResult]) -> NameLine:
    """"12 more cases in 3 families: random (9), b (2), a." — or the cases' names when one family holds them."""
    families: dict[str, int] = {}
    for case in cases:
        families[case.family] = families.get(case.family, 0) + 1
    # these fail unlike every panel above (which outputs differ is no reason to list: one mistake spans many)
    if len(families) == 1:
        return NameLine(plural(len(cases), "{n} more case in {family}, failing unlike the panels above: ",
                               "{n} more cases in {family}, failing unlike the panels above: ",
                               family=cases[0].family), [case.name for case in cases], tr("(-v shows them)"))
    return NameLine(tr("{n} more cases in {k} families, failing unlike the panels above: ", n=len(cases),
                       k=len(families)),
                    [f"{family} ({n})" if n > 1 else family for family, n in
                     sorted(families.items(), key=lambda item: -item[1])], tr("(-v shows them)"))  # the largest first


class FamilyLine:
    """"Failing families:" in at most two lines at the screen's width: every failing family with its count
    when that fits; "all 28 but start_pos_zero" when fewer passed than failed and that is shorter; else the
    failing ones cut with "… and N more"."""

    def __init__(self, families: list[tuple[str, int, int]]):
        self.bad = [(family, n, ok) for family, n, ok in families if ok < n]
        self.good = [family for family, n, ok in families if ok == n]

    def _line(self, body: str, passed_note: bool = True) -> Text:
        text = Text(tr("Failing families: "), style="bold")
        text.append(body)
        if passed_note and self.good:
            text.append(plural(len(self.good), "  ({n} other family passed)", "  ({n} other families passed)"), style="dim")
        return text

    def exact(self) -> list[Text]:
        """What says it all: every failing family, and "all N but …" where fewer passed than failed."""
        out = [self._line(" · ".join(f"{family} {n - ok}/{n}" for family, n, ok in self.bad))]
        if self.good and len(self.good) < len(self.bad) and len(self.good) <= MAX_FAMILY_NAMES:
            out.append(self._line(tr("all {n} but {names}", n=len(self.bad) + len(self.good), names=", ".join(self.good)),
                                  passed_note=False))
        elif not self.good and len(self.bad) > 1:
            out.append(self._line(tr("all {n}", n=len(self.bad))))
        return out

    def cut(self, keep: int) -> Text:
        items = [f"{family} {n - ok}/{n}" for family, n, ok in self.bad[:keep]]
        return self._line(" · ".join(items) + " " + tr("… and {n} more", n=len(self.bad) - keep))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        def fits(text: Text) -> bool:
            return len(text.wrap(console, options.max_width)) <= 2

        exact = self.exact()
        if exact[0].cell_len <= options.max_width:  # the whole list on one line: nothing shorter says more
            yield exact[0]
            return
        exact = [text for text in exact if fits(text)]
        if exact:
            yield min(exact, key=lambda text: text.cell_len)
            return
        keep = len(self.bad) - 1
        while keep > 1 and not fits(self.cut(keep)):
            keep -= 1
        yield self.cut(keep)


def failing_families(result: CheckResult) -> FamilyLine | None:
    families = result.families()
    return FamilyLine(families) if any(ok < n for _, n, ok in families) else None


# ---------------------------------------------------------------- one case


def whole_file(result: CheckResult) -> RenderableType:
    body = Text(result.message, style=STYLE[result.status])
    if result.hint:
        body.append("\n\n" + result.hint, style="default")
    colour = STYLE[result.status].split()[-1]
    return Panel(body, title=Text(word(result.status), style=STYLE[result.status]), title_align="left", border_style=colour)


def case_panel(case: CaseResult, result: CheckResult, verbose: bool = False, with_mistake: bool = True,
               with_inputs: bool = True) -> Panel:
    from checker.app.render.figures import figure_for

    body: list[RenderableType] = [Text(case.about, style="italic")]
    if with_inputs:
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
        body.append(Text(tr("✗ {n} more: {names} (-v shows them)", n=len(rest), names=names), style="red"))
    if case.mistake and with_mistake:
        body.append(mistake_text(case))
    title = Text.assemble((word(case.status), STYLE[case.status]), " ", case.name)
    return Panel(Group(*body), title=title, title_align="left", border_style=STYLE[case.status].split()[-1])


def inputs_table(case: CaseResult) -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(style="cyan", no_wrap=True)
    table.add_column()
    for info in case.inputs:
        if info.shape is None:
            shown = tr("the device the check runs on") if info.dtype == "run device" else (
                str(info.values) if info.dtype == "device" else f"{info.values!r}")
            table.add_row(info.name, shown)
            continue
        described = f"{info.dtype} {list(info.shape)}"
        if info.values is not None and _count(info.shape) <= 16:
            described += f" = {_short(info.values)}"
        table.add_row(info.name, described)
    return table


def error_text(case: CaseResult) -> Text:
    error = case.error
    text = Text()
    if error.type == "NotImplementedError" and not error.traceback.strip():
        text.append(tr("not implemented yet: "), style="bold yellow")
        text.append(error.message or tr("it raises NotImplementedError"))
        return text
    text.append(f"{error.type}: ", style="bold yellow")
    text.append(error.message)
    trace = _without_last_line(error.traceback, f"{error.type}: {error.message}")
    if trace.strip():
        text.append("\n" + trace.rstrip(), style="dim")
    return text


def _without_last_line(traceback: str, said: str) -> str:
    """A traceback ends with the exception's own lines, which the message above already shows, perhaps
    with a hint added to its end ("… overflow — a constant too large for …"): drop them once."""
    lines = traceback.rstrip("\n").splitlines()
    own = [line.strip() for line in said.strip().splitlines()]
    tail = [line.strip() for line in lines[-len(own):]] if own and len(lines) >= len(own) else []
    if tail and tail[-1] and tail[:-1] == own[:-1] and own[-1].startswith(tail[-1]):
        return "\n".join(lines[:-len(own)])
    while lines and (lines[-1].strip() == said.strip() or said.strip().endswith(lines[-1].strip()) and lines[-1].strip()):
        lines.pop()
    return "\n".join(lines)


def problem_text(problem: Problem, listed: bool = True) -> Text:
    """The problem in one sentence and where it is worst; `listed=False` leaves out the first
    mismatching elements when a figure beside it shows them."""
    text = Text("✗ ", style="bold red")
    text.append(problem.message)
    if problem.where:
        text.append("\n  " + problem.where)
    m = problem.mismatch
    if m is not None and problem.kind in ("values", "nonfinite", "precision") and (m.rtol or m.atol):
        if tuple(m.max_abs_index) == ():  # a 0-dim value: no index to point at
            text.append("\n  " + tr("difference {diff} (a scalar; rtol {rtol:g}, atol {atol:g})", diff=_num(m.max_abs),
                                    rtol=m.rtol, atol=m.atol), style="dim")
        else:
            text.append("\n  " + tr("largest difference {diff} at {index} (rtol {rtol:g}, atol {atol:g})",
                                    diff=_num(m.max_abs), index=m.max_abs_index, rtol=m.rtol, atol=m.atol), style="dim")
    if m is not None and listed:
        for index, expected, got in m.first:
            text.append("\n    " + tr("at {index}: expected {expected}, got {got}", index=where(index), expected=_num(expected),
                                      got=_num(got)))
    return text


def printed(output: str, case: str = "") -> Panel:
    """What the learner's code printed (in one case, when known), whole lines only."""
    lines = output.rstrip("\n").splitlines()
    cut = len(lines) > OUTPUT_LINES
    shown = lines[-OUTPUT_LINES:]
    if cut or output.startswith("[…"):
        shown = [tr("… ({n} earlier lines)", n=max(len(lines) - OUTPUT_LINES, 0))] + [
            line for line in shown if not line.startswith("[…")]
    title = tr("your code printed in case {case}", case=case) if case else tr("your code printed")
    return Panel(Text("\n".join(shown)), title=title, title_align="left", border_style="dim")


def bench_line(result: CheckResult) -> Text:
    bench = result.bench or {}
    if bench.get("failed"):
        whose = tr("your code") if bench["failed"] == "yours_ms" else tr("the reference")
        return Text(tr("bench: {whose} did not finish on the large input ({shape}): it raised, or ran out of time or "
                       "memory.", whose=whose, shape=bench.get("shape", "")), style="yellow")
    mine, ref = bench.get("yours_ms", 0.0), bench.get("reference_ms", 0.0)
    text = Text(tr("bench: "), style="bold")
    text.append(tr("your {id}: {mine}, reference: {ref} on {device} ({shape})", id=result.kata, mine=_ms(mine),
                   ref=_ms(ref), device=result.device, shape=bench.get("shape", "")))
    if ref > 0:
        ratio = mine / ref
        text.append(tr(" — {ratio}× the reference's time", ratio=f"{ratio:.2g}"), style="yellow" if ratio >= 2 else "")
        if ratio >= 2:
            text.append(tr(": is there a Python loop that could be a tensor op?"), style="yellow")
    if bench.get("note"):
        text.append(f"\n  {bench['note']}", style="dim")
    return text


def _ms(ms: float) -> str:
    return f"{ms:,.0f} ms" if ms >= 100 else f"{ms:.3g} ms"


def verdict_line(result: CheckResult) -> Text:
    passed = sum(c.status is Status.PASS for c in result.cases)
    total = result.planned or len(result.cases)
    text = Text()
    text.append(f" {word(result.status)} ", style=f"reverse {STYLE[result.status]}")
    text.append("  ")
    if result.passed:
        text.append(plural(total, "{id}: the {n} case passed", "{id}: all {n} cases passed", id=result.kata))
        text.append(tr(" in {seconds} s.", seconds=f"{result.seconds:.2f}"))
    elif result.cases:
        ran = len(result.cases)
        if ran < total:
            text.append(tr("{passed} of {total} cases passed; {ran} ran before it stopped", passed=passed, total=total, ran=ran))
        else:
            text.append(tr("{passed} of {total} cases passed", passed=passed, total=total))
    else:
        text.append(re.split(r": |：", result.message.split("\n")[0])[0] if result.message else tr("no case ran"))
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
    return f"{value:.6g}" if isinstance(value, float) else repr(value)  # inf and nan print as such


def where(index: tuple[int, ...]) -> str:
    """An element's index as the report writes it; a 0-dim value has no index to show."""
    return tr("(scalar)") if tuple(index) == () else str(tuple(index))
