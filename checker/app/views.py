"""What the light commands show: the overview, the list, stats, hints, the reference, follow-ups.

Data in (katas, progress, text), rich renderables out; nothing here writes history or files.
Import-light: rich, no torch. Every view works at 60, 80 and 200 columns and in a pipe; content
(hints, titles, code, questions) is printed as plain Text, never parsed as markup.
"""
from __future__ import annotations

import ast
import difflib
import io
import tokenize
from typing import Callable

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from checker.text import catalog
from checker.app import practice
from checker.judge import static
from checker.text.catalog import Kata
from checker.text.i18n import plural, tr
from checker.app.state import Event

STATUS_STYLE = {"new": "dim", "attempted": "yellow", "revealed": "magenta", "passed": "green", "mastered": "bold green"}
CODE = "bold cyan"
# How a `kata …` command in a message is shown: as typed at a terminal (None), or as the front end that shows it
# would have it typed (the notebook sets a function that turns `kata hint gae` into `kata.hint("gae")`).
spoken_command: Callable[[str], str] | None = None


def styled(message: str) -> Text:
    """A translated message whose `backtick spans` (commands, code) are shown bold, without the backticks.

    Values were filled in before this is called; they are literal text whatever they contain.
    """
    text = Text()
    for i, piece in enumerate(message.split("`")):
        if i % 2 and spoken_command is not None and piece.startswith("kata "):
            piece = spoken_command(piece)
        text.append(piece, style=CODE if i % 2 else "")
    return text


def say(message: str, style: str = "") -> Text:
    text = styled(message)
    if style:
        text.stylize(style)
    return text


# ---------------------------------------------------------------- `kata` alone


def overview(events: list[Event], current: Kata | None, current_file: str | None) -> RenderableType:
    """Where the learner stands: the current kata, progress, and the one command to run next."""
    parts: list[RenderableType] = [Text("kata", style="bold") + Text(" — " + tr("practise the code ML interviews ask you "
                                                                               "to write from memory"))]
    o = practice.overview(events)
    parts.append(Text(tr("{passed} of {total} katas passed, {mastered} mastered.", passed=o.passed, total=o.total,
                         mastered=o.mastered)))
    if current is not None:
        p = practice.progress(current.id, events)
        parts.append(styled(tr("Current: `{id}` — {title} ({status}), in {file}.", id=current.id, title=current.title,
                               status=practice.status_word(p.status), file=current_file or current.filename)))
        if p.status in ("passed", "mastered") and p.opened_at is None:
            first = practice.suggest(events)[0]
            parts.append(styled(tr("Next: `kata start {id}` — {why}.", id=first.kata.id, why=first.why)))
        else:
            parts.append(styled(tr("Next: `kata check` (or `kata watch` to re-check on every save); stuck? `kata hint`.")))
    elif not events:
        parts.append(styled(tr("New here? `kata demo gae` shows a report, then `kata start gae` gives you a file to "
                               "write.")))
    else:
        first = practice.suggest(events)[0]
        parts.append(styled(tr("Next: `kata start {id}` — {why}.", id=first.kata.id, why=first.why)))
    parts.append(say(tr("`kata list` shows every kata; `kata --help` every command."), "dim"))
    return Group(*parts)


# ---------------------------------------------------------------- list


def kata_list(events: list[Event], width: int, current: Kata | None, topic: str | None = None) -> RenderableType:
    """Every kata with its status. The id and the status are never cut; other columns go as width shrinks."""
    table = practice.progress_all(events)
    katas = [k for k in catalog.KATAS if topic is None or k.topic == topic]
    columns = ["id", "status", "title", "topic", "level", "best", "last"]
    if topic:  # one topic: its column would say the same on every row
        columns.remove("topic")
    heads = {"id": tr("id"), "status": tr("status"), "title": tr("title"), "topic": tr("topic"), "level": tr("level"),
             "best": tr("best"), "last": tr("last practised")}
    rows, greyed = [], set()
    missing: dict[str | None, str | None] = {}  # what a kata needs -> why it is missing here (None: installed)
    for kata in katas:
        p = table[kata.id]
        mark = "▶ " if current is not None and kata.id == current.id else "  "
        if kata.needs not in missing:
            missing[kata.needs] = static.missing_library(kata.needs)
        if missing[kata.needs] is not None:
            greyed.add(len(rows))
        rows.append({"id": mark + kata.id, "status": Text(practice.status_word(p.status), style=STATUS_STYLE[p.status]),
                     "title": kata.title, "topic": practice.topic_name(kata.topic),
                     "level": practice.difficulty_word(kata.difficulty), "best": practice.duration(p.best_seconds),
                     "last": practice.ago(p.last_at)})
    head = {name: Text(heads[name], style="bold") for name in columns}
    cells = [{name: cell if isinstance(cell, Text) else Text(cell) for name, cell in row.items()} for row in rows]
    for i in greyed:  # a kata this machine cannot check (no triton): shown, greyed
        for cell in cells[i].values():
            cell.stylize("dim")
    widths = {name: max([head[name].cell_len, *(row[name].cell_len for row in cells)]) for name in columns}
    names = _fit(columns, widths, width)
    if "title" in names:
        widths["title"] = width - sum(widths[n] for n in names if n != "title") - 2 * (len(names) - 1) \
            if sum(widths[n] for n in names) + 2 * (len(names) - 1) > width else widths["title"]
        for row in cells:  # a title too long for its room ends in "…"
            if row["title"].cell_len > widths["title"]:
                row["title"].truncate(widths["title"], overflow="ellipsis")
    out = _aligned([head[n] for n in names], [[row[n] for n in names] for row in cells], [widths[n] for n in names])
    o = practice.overview(events)
    foot = Text(tr("{passed} of {total} passed, {mastered} mastered.", passed=o.passed, total=o.total, mastered=o.mastered),
                style="bold")
    foot.append(tr(" {legend}", legend=practice.legend()), style="dim")  # Chinese: no space after 。
    if greyed:
        return Group(out, foot, Text(tr("Greyed: the kernel katas need `pip install 'kata[kernels]'` (Linux)."),
                                     style="dim"))
    return Group(out, foot)


def _aligned(head: list[Text], rows: list[list[Text]], widths: list[int]) -> Group:
    """Columns padded to `widths` (in cells), two cells apart, a rule under the head: what rich's Table
    draws for this list (SIMPLE_HEAD, no edge), at a fraction of its layout cost on every `kata list`."""

    def line(cells: list[Text]) -> Text:
        out = Text()
        for i, (cell, w) in enumerate(zip(cells, widths)):
            out.append_text(cell)
            out.append(" " * (w - cell.cell_len) + ("  " if i < len(cells) - 1 else ""))
        return out

    return Group(line(head), Text("─" * (sum(widths) + 2 * (len(widths) - 1))), *(line(row) for row in rows))


TITLE_ROOM = 30  # a title cut shorter than this loses its meaning: the level goes first
TOPIC_ROOM = 20  # the topic (what `--topic` takes) stays at 80 columns: a title may be cut this short for it
TITLE_LEAST = 8  # below this, no title at all


def _fit(columns: list[str], widths: dict[str, int], width: int) -> list[str]:
    """The columns that fit in `width` cells (two cells between columns). The id and the status stay; the
    title is what a newcomer reads, so it stays too, cut with "…" if it must be: the last-practised and
    best-time columns go first, then the level while the title has less than TITLE_ROOM cells, then the topic
    while it has less than TOPIC_ROOM (or less than its whole width), and the title itself only on a screen
    too narrow for any of it."""

    def room(keep: list[str]) -> int:
        return width - sum(widths[n] for n in keep if n != "title") - 2 * (len(keep) - 1)

    least = {"last": widths["title"], "best": widths["title"], "level": TITLE_ROOM, "topic": TOPIC_ROOM}
    keep = list(columns)
    for drop in ("last", "best", "level", "topic"):
        if drop not in keep:
            continue
        if room(keep) >= min(widths["title"], least[drop]):
            return keep
        keep.remove(drop)
    if room(keep) < TITLE_LEAST:
        keep.remove("title")
    return keep


# ---------------------------------------------------------------- stats


def stats(events: list[Event], now: float | None = None) -> RenderableType:
    table = Table(header_style="bold", title=tr("progress by topic"), title_justify="left", box=box.SIMPLE_HEAD)
    for column in (tr("topic"), tr("katas"), tr("passed"), tr("mastered"), tr("revealed"), tr("checks")):
        table.add_column(column, justify="right", no_wrap=True)
    table.columns[0].justify = "left"
    for row in practice.topic_stats(events):
        colour = "green" if row.passed == row.katas else ("yellow" if row.passed else "dim")
        table.add_row(practice.topic_name(row.topic), str(row.katas), Text(str(row.passed), style=colour),
                      str(row.mastered), str(row.revealed), str(row.checks))
    days = practice.streak(events, now)
    parts: list[RenderableType] = [table, Text(practice.legend(), style="dim"),
                                   Text(plural(days, "streak: {n} day in a row with a check", "streak: {n} days in a row with a check"))]
    interviews = [e for e in events if e.kind == "interview" and e.verdict is not None]
    if interviews:
        passed = [e for e in interviews if e.verdict == "pass"]
        line = tr("interviews: {passed} passed, {timeout} out of time, {quit} stopped", passed=len(passed),
                  timeout=sum(e.verdict == "timeout" for e in interviews), quit=sum(e.verdict == "quit" for e in interviews))
        if passed:
            best = min(passed, key=lambda e: e.seconds or 0)
            line += tr("; fastest: {id} in {time}", id=best.kata, time=practice.duration(best.seconds))
        parts.append(Text(line))
    worst = practice.failing_most(events)
    if worst:
        parts.append(Text(tr("fail most (full checks; a watch session counts once):"), style="bold"))
        for p in worst:
            line = tr("  {id}: {fails} of {checks} checks failed", id=p.kata, fails=p.fails, checks=p.checks)
            if p.status in ("passed", "mastered"):
                line += tr(" (passed since)")
            parts.append(Text(line))
    else:
        parts.append(Text(tr("no failing checks yet"), style="dim"))
    return Group(*parts)


# ---------------------------------------------------------------- hints, follow-ups


def hint(kata: Kata, number: int, text: str) -> Text:
    line = Text(tr("Hint {n}/{total} for {id}: ", n=number, total=len(kata.hints), id=kata.id), style="bold")
    line.append(text)  # content: literal, whatever brackets it holds
    return line


def followups(kata: Kata, answers: bool) -> RenderableType:
    text = kata.text()
    parts: list[RenderableType] = [Text(tr("Follow-up questions on {id} — what an interviewer asks once your code "
                                           "passes:", id=kata.id), style="bold")]
    for n, item in enumerate(text.followups, 1):
        parts.append(Text(f"{n}. ", style="bold") + Text(item.question))
        if answers:
            parts.append(Text(paragraphs(item.answer), style="italic") + Text("\n"))
    if not answers:
        parts.append(say(tr("Think them through, then `kata followup {id} --answers` shows model answers.", id=kata.id),
                         "dim"))
    return Group(*parts)


def paragraphs(source: str) -> str:
    """Content text hard-wrapped in its TOML file, joined back into paragraphs for the terminal to wrap at
    its own width. A blank line separates paragraphs; an indented line and the lines of a ``` fence are
    code and stay as they are. Lines join with a space, or with none where either side is a wide (CJK)
    character: Chinese has no spaces between words."""
    out: list[str] = []  # finished lines; a paragraph grows in out[-1] while `joining`
    joining = fenced = False
    for line in source.strip("\n").splitlines():
        if line.strip().startswith("```"):
            fenced, joining = not fenced, False
            out.append(line.rstrip())
        elif fenced or line[:1] in (" ", "\t"):
            out.append(line.rstrip())
            joining = False
        elif not line.strip():
            out.append("")
            joining = False
        elif joining:
            before, after = out[-1].rstrip(), line.strip()
            out[-1] = before + ("" if cell_len(before[-1]) == 2 or cell_len(after[0]) == 2 else " ") + after
        else:
            out.append(line.strip())
            joining = True
    return "\n".join(out).strip("\n")


# ---------------------------------------------------------------- the reference


def fold(line: str, room: int) -> list[str]:
    """`line` in pieces of at most `room` cells (a wide character counts two): nothing is cut. A piece ends
    after the last space that fits (past the line's indentation), so identifiers stay whole; a line with
    no such space breaks at the width."""
    pieces: list[str] = []
    while cell_len(line) > room:
        fit, used = 0, 0
        for ch in line:
            used += cell_len(ch)
            if used > room:
                break
            fit += 1
        fit = max(fit, 1)
        indent = len(line) - len(line.lstrip(" "))
        space = line.rfind(" ", indent, fit)
        cut = space + 1 if space > indent else fit
        pieces.append(line[:cut])
        line = line[cut:]
    return pieces + [line] if line or not pieces else pieces


class Folded:
    """Lines behind a gutter; a line longer than the screen continues on the next row behind a `┆` in
    the gutter, so nothing is ever cut and a continuation is never mistaken for a line of its own."""

    def __init__(self, rows: list[tuple[str, str, str]], gutter_style: str | None = "dim"):
        self.rows = rows  # (gutter, text, style); the gutters of one view have one width
        self.gutter_style = gutter_style  # None: the gutter takes its line's style (a diff's sign)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for gutter, text, style in self.rows:
            width = cell_len(gutter)
            more = " " * (width - 2) + "┆ " if width >= 2 else "┆"
            for k, piece in enumerate(fold(text, max(options.max_width - width, 10))):  # a piece keeps the space it
                yield Text(gutter if k == 0 else more, style=self.gutter_style or style) + Text(piece, style=style)  # folds at


def reference(kata: Kata, source: str) -> RenderableType:
    """`kata reveal`: a title line (which kata, and that this is the reference), then the numbered code."""
    title = Text(tr("{id} — {title}: the reference", id=kata.id, title=kata.title), style="bold")
    return Group(title, code_lines(source))


def code_lines(source: str) -> Folded:
    """Code with line numbers."""
    lines = source.rstrip("\n").splitlines()
    width = len(str(len(lines)))
    return Folded([(f"{n:>{width}} │ ", line, "") for n, line in enumerate(lines, 1)])


def without_docs(source: str) -> list[str]:
    """The code's lines without its docstrings, comments and blank lines: what a diff should compare."""
    return [line for _, line in numbered_code(source)]


def numbered_code(source: str) -> list[tuple[int, str]]:
    """`without_docs`, each line with its number in `source` (from 1): a diff's hunks say where they are in the
    file itself, as the hints do ("line 59 of rope_bug.py"), not in the stripped copy."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return [(n, line.rstrip()) for n, line in enumerate(source.splitlines(), 1)
                if line.strip() and not line.strip().startswith("#")]
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(
                getattr(body[0], "value", None), ast.Constant) and isinstance(body[0].value.value, str):
            skip.update(range(body[0].lineno, body[0].end_lineno + 1))
    comments: dict[int, int] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                comments[token.start[0]] = token.start[1]
    except (tokenize.TokenError, IndentationError):
        pass
    out = []
    for n, line in enumerate(source.splitlines(), 1):
        if n in skip:
            continue
        if n in comments:
            line = line[:comments[n]]
        if line.strip():
            out.append((n, line.rstrip()))
    return out


def diff_lines(mine: str, reference: str, left: str, right: str, context: int = 2) -> list[str]:
    """difflib.unified_diff of the two codes' `numbered_code`, its `@@ -a,b +c,d @@` in each file's own line numbers
    (a hunk's range spans the docstrings and comments left out inside it)."""
    a, b = numbered_code(mine), numbered_code(reference)

    def span(numbered: list[tuple[int, str]], start: int, stop: int) -> str:
        if stop <= start:  # nothing on this side: the line after which the other side's lines go, as difflib says it
            return f"{numbered[start - 1][0] if start else 0},0"
        first, length = numbered[start][0], numbered[stop - 1][0] - numbered[start][0] + 1
        return str(first) if length == 1 else f"{first},{length}"

    out: list[str] = []
    matcher = difflib.SequenceMatcher(None, [t for _, t in a], [t for _, t in b])
    for group in matcher.get_grouped_opcodes(context):
        if not out:
            out += [f"--- {left}", f"+++ {right}"]
        out.append(f"@@ -{span(a, group[0][1], group[-1][2])} +{span(b, group[0][3], group[-1][4])} @@")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [" " + t for _, t in a[i1:i2]]
                continue
            if tag in ("replace", "delete"):
                out += ["-" + t for _, t in a[i1:i2]]
            if tag in ("replace", "insert"):
                out += ["+" + t for _, t in b[j1:j2]]
    return out


def unified_diff(mine: str, reference: str, left: str, right: str) -> RenderableType:
    """A unified diff of the code (docstrings and comments left out), `-` yours, `+` the reference; a long
    line folds behind a `┆` in the sign's column. Its hunks give each file's own line numbers."""
    lines = diff_lines(mine, reference, left, right)
    if not lines:
        return Text(tr("No difference in the code (docstrings and comments aside)."))
    rows = []
    for line in lines:
        style = "bold" if line.startswith(("---", "+++")) else "cyan" if line.startswith("@@") else (
            "red" if line.startswith("-") else "green" if line.startswith("+") else "")
        rows.append((line[:1], line[1:], style))
    return Folded(rows, gutter_style=None)
