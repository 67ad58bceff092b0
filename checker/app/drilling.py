"""What `kata bug` does, and what a check, a hint or a reveal of a drill shows instead of a kata's.

A drill (checker/app/drills.py) is checked like any file, but its report does not name the mistake: the
learner asks for it with `kata hint`, whose ladder for a drill is the failing family, then the region,
then the mistake and its fix. A pass says "Fixed: <the mistake>" and shows the learner's change against
the drill as written. Import-light: rich, no torch.
"""
from __future__ import annotations

import dataclasses
import os
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Group, RenderableType
from rich.text import Text

from checker.app import commands, drills, views
from checker.text import i18n
from checker.text.catalog import Kata
from checker.app.drills import Written
from checker.errors import KataError
from checker.text.i18n import tr
from checker.app.state import Event, Store


def _rel(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


# ---------------------------------------------------------------- kata bug


@dataclass(frozen=True)
class Wrote:
    written: Written
    saved: Path | None  # the backup of what --force replaced


def target(kata: Kata, directory: Path) -> Path:
    return directory.expanduser() / f"{kata.module}{drills.SUFFIX}.py"


def write(kata: Kata, directory: Path, force: bool, store: Store) -> Wrote:
    """Write the next drill of `kata` to DIR/<module>_bug.py and make it current; a file there is kept
    unless --force, and then backed up first."""
    if not drills.of(kata):
        raise KataError(tr("{id} has no drills yet; `kata bug --list` shows the katas that have.", id=kata.id))
    directory = directory.expanduser()
    if directory.exists() and not directory.is_dir():
        raise KataError(tr("{path} is not a directory.", path=directory))
    path = target(kata, directory)
    if path.is_dir():
        raise KataError(tr("{path} is a directory; choose another place with `--dir`.", path=path))
    saved = None
    if path.exists():
        if not force:
            raise KataError(tr("{file} is already there: `kata check {file}` goes on with it, and `kata bug {id} "
                               "--force` keeps it as a backup and writes another drill.", file=_rel(path), id=kata.id))
        try:
            saved = commands.backup(path)
        except OSError as exc:
            raise KataError(tr("Cannot back up {path} ({why}); nothing was overwritten.", path=path,
                               why=exc.strerror or exc)) from exc
    drill = drills.pick(kata, store.events(kata.id))
    assert drill is not None
    lang = i18n.current()
    text = drill.written(lang)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.kata-tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)  # atomic: the old file or the new one, never half of each
    except OSError as exc:
        raise KataError(tr("Cannot write {path}: {why}. Choose another place with `--dir`.", path=path,
                           why=exc.strerror or exc)) from exc
    written = Written(drill, path.resolve(), text, lang)
    drills.remember(store, written)
    commands.remember(store, kata, path)
    store.record(Event(kata.id, drills.WROTE, time.time(), detail=drill.key, file=str(path.resolve())))
    return Wrote(written, saved)


def wrote_line(wrote: Wrote) -> str:
    return tr("Wrote {file}: a whole {id} with one bug in it. Find it and fix it: `kata check {file}` (or `kata "
              "watch`); stuck? `kata hint`.", file=_rel(wrote.written.path), id=wrote.written.kata.id)


def fields(written: Written, store: Store) -> dict:
    """What --json says of a drill."""
    first, last = written.region()
    record = drills.records(written.kata, store.events(written.kata.id)).get(written.key)
    return {"kata": written.kata.id, "key": written.key, "file": str(written.path), "region": [first, last],
            "fixed": bool(record and record.fixed)}


# ---------------------------------------------------------------- which drill is meant


def current(kata: Kata, store: Store) -> Written | None:
    """The drill of `kata` that is the current file, if the current file is one."""
    path = store.get(commands.CURRENT_FILE)
    written = drills.at(store, path) if path else None
    return written if written is not None and written.kata.id == kata.id else None


# ---------------------------------------------------------------- a check of a drill


def shown(result, written: Written | None):
    """The result as a report shows it: for a drill, without the mistake's name or the line a problem was made on
    (the hints give them)."""
    if written is None:
        return result
    cases = tuple(dataclasses.replace(c, mistake=None, mistake_hint=None,
                                      problems=tuple(dataclasses.replace(p, where="") for p in c.problems))
                  for c in result.cases)
    return dataclasses.replace(result, cases=cases)


def after(written: Written, path: Path, passed: bool, store: Store, event: Event | None = None) -> RenderableType:
    """Under a drill's report: the fix and the learner's change once it passes; how to get a hint until then.
    `event` is the check's own, counted whether or not it is in the history yet (watch draws before it records)."""
    kata = written.kata
    if not passed:
        return views.say(tr("Stuck? `kata hint` shows which cases fail, then where to look, then what it is."), "dim")
    label = kata.text().mistakes[written.key].label
    parts: list[RenderableType] = [Text(tr("Fixed: {label}", label=label), style="bold green")]
    events = store.events(kata.id)
    if event is not None and not any((e.kind, e.at, e.file) == (event.kind, event.at, event.file) for e in events):
        events.append(event)
    table = drills.records(kata, events)
    if table[written.key].revealed:
        parts.append(Text(tr("(after `kata reveal`: not counted as fixed)"), style="dim"))
    try:
        mine = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        mine = None
    if mine is not None:
        parts.append(Text(tr("Your change to the drill as written:"), style="bold"))
        parts.append(views.unified_diff(written.text, mine, left=tr("the drill as written"),
                                        right=tr("yours: {file}", file=_rel(path))))
    available = [d.key for d in drills.of(kata)]
    fixed = sum(table[k].fixed for k in available)
    if fixed < len(available):
        parts.append(views.say(tr("Another one: `kata bug {id} --force` ({fixed} of {total} drills of {id} fixed).",
                                  id=kata.id, fixed=fixed, total=len(available))))
    else:
        parts.append(views.say(tr("Every drill of {id} is fixed; `kata bug --list` shows the others.", id=kata.id)))
    return Group(*parts)


# ---------------------------------------------------------------- hints


def ladder(written: Written, number: int) -> str:
    """Hint `number` (1 to 3) of a drill: the failing family, the region, the mistake and its fix."""
    kata, name = written.kata, written.path.name
    text = kata.text()
    if number == 1:
        family = written.failing[0]
        line = tr("The cases of `{family}` fail: {about}.", family=family, about=text.family(family))
        more = len(written.failing) - 1
        if more:
            line += tr(" ({n} other failing families: `kata check` lists them.)", n=more)
        return line
    if number == 2:
        first, last = written.region()
        if first == last:
            return tr("Look at line {line} of {file}.", line=first, file=name)
        return tr("Look at lines {first} to {last} of {file}.", first=first, last=last, file=name)
    mistake = text.mistakes[written.key]
    return tr("This looks like: {label}. The fix: {fix}.", label=mistake.label, fix=mistake.fix.rstrip(".。"))


def hint(written: Written, store: Store, watching: bool = False) -> RenderableType:
    """The next hint of the drill's ladder (the last repeats), recorded in the history. `watching`: asked by `h`
    in kata watch or an interview, where `r` checks the file in the same window."""
    taken = drills.records(written.kata, store.events(written.kata.id))[written.key].hints
    if taken == 0 and not written.failing:
        if watching:
            return views.say(tr("Check it first: press `r`; the first hint then says which cases fail."))
        return views.say(tr("Check it first: `kata check {file}`; the first hint then says which cases fail.",
                            file=_rel(written.path)))
    number = min(taken, drills.LADDER - 1) + 1
    store.record(Event(written.kata.id, drills.HINT, time.time(), detail=f"{written.key}; {number}",
                       file=str(written.path)))
    if taken >= drills.LADDER:  # past the ladder's end: the last hint once more, said as such, and what is left
        line = Text(tr("The last hint ({n}/{n}) for {id}, again: ", n=number, id=written.path.name), style="bold")
        line.append_text(views.styled(ladder(written, number)))
        return Group(line, views.say(tr("That was the last hint. `kata reveal` gives this drill up and shows the "
                                        "fix (it comes back later).")))
    line = Text(tr("Hint {n}/{total} for {id}: ", n=number, total=drills.LADDER, id=written.path.name), style="bold")
    line.append_text(views.styled(ladder(written, number)))  # the content in it is literal: values were filled in
    return line


def next_hint(kata: Kata, path: Path | str | None, store: Store, watching: bool = False) -> RenderableType:
    """`kata hint` and watch's h (`watching`): the drill's ladder when `path` is a drill of `kata`, else the kata's."""
    written = drills.at(store, path) if path else None
    if written is not None and written.kata.id == kata.id:
        return hint(written, store, watching)
    number, text, again = commands.hint_step(kata, store)
    if not again:
        return views.hint(kata, number, text)
    # Past the ladder's end: the last hint once more, said as such, and where to go from here.
    return Group(Text(tr("The last hint ({n}/{n}) for {id}, again: ", n=number, id=kata.id), style="bold") + Text(text),
                 views.say(tr("That was the last hint. `kata reveal {id}` shows the reference solution (it is recorded).",
                              id=kata.id)))


# ---------------------------------------------------------------- giving up


def reveal(written: Written, store: Store) -> RenderableType:
    """The mistake, its fix, and the drill with its slip undone, as a diff; recorded as given up."""
    store.record(Event(written.kata.id, drills.REVEAL, time.time(), detail=written.key, file=str(written.path)))
    mistake = written.kata.text().mistakes[written.key]
    parts: list[RenderableType] = [
        Text(tr("The bug in {file}: {label}.", file=written.path.name, label=mistake.label), style="bold"),
        Text(tr("The fix: {fix}.", fix=mistake.fix.rstrip(".。"))),
        views.unified_diff(written.text, written.drill.undone(written.text), left=tr("the drill as written"),
                           right=tr("the drill, fixed")),
        views.say(tr("Recorded as given up; it comes back later. `kata bug {id} --force` writes another drill.",
                     id=written.kata.id), "dim"),
    ]
    return Group(*parts)


# ---------------------------------------------------------------- list, stats, next


def listing(events: list[Event]) -> RenderableType:
    """Per kata, drills fixed / drills there are, and nothing about what they are."""
    rows = drills.tally(events)
    width = max(len(r.kata.id) for r in rows)
    lines: list[RenderableType] = [Text(tr("bug drills fixed, per kata:"), style="bold")]
    for r in rows:
        style = "green" if r.available and r.fixed == r.available else ("yellow" if r.fixed else "")
        lines.append(Text(f"  {r.kata.id:<{width}}  ") + Text(f"{r.fixed}/{r.available}", style=style))
    lines.append(views.say(tr("`kata bug ID` writes a drill of that kata: a whole solution with one bug to find.")))
    return Group(*lines)


def stats_line(events: list[Event]) -> Text:
    rows = drills.tally(events)
    return views.say(tr("bug drills: {fixed} of {total} fixed, {given_up} given up (`kata bug --list`)",
                   fixed=sum(r.fixed for r in rows), total=sum(r.available for r in rows),
                   given_up=sum(r.given_up for r in rows)))


def suggestion(kata: Kata, events: list[Event]) -> str | None:
    """For a kata passed before: a drill of it, when one is not fixed yet."""
    row = next((r for r in drills.tally(events) if r.kata.id == kata.id), None)
    if row is None or not row.available or row.fixed == row.available:
        return None
    return tr("Or find the bug in one of its drills: `kata bug {id}` ({fixed} of {total} fixed).", id=kata.id,
              fixed=row.fixed, total=row.available)
