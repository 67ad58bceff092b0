"""What `kata check` does around the engine: run it, record it, write reproduce commands that
reproduce, and say what to do next.

The engine judges a file; this module knows the command line it came from (the target as the
learner typed it, the options that were not the defaults), the history, and the catalog, so the
reproduce command carries --kata, --timeout, --device and --memory-gb when they mattered and names
the file relative to where the learner stands.
"""
from __future__ import annotations

import os
import random
import shlex
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from rich.console import Group, RenderableType
from rich.text import Text

from checker.app import commands, drills, practice
from checker.judge import static
from checker.text.catalog import Kata
from checker.text.i18n import tr
from checker.judge.results import CheckResult, Status
from checker.app.state import Event, Store

DEFAULT_TIMEOUT = 30.0
DEFAULT_MEMORY_GB = 4.0


@dataclass(frozen=True)
class Checked:
    kata: Kata
    path: Path
    result: CheckResult
    event: Event  # what the history keeps of it
    drill: drills.Written | None = None  # the file is a drill `kata bug` wrote for this kata


def check(kata: Kata, path: Path, store: Store, *, device: str = "auto", seed: int | None = None,
          case: str | None = None, timeout: float = DEFAULT_TIMEOUT, memory_gb: float = DEFAULT_MEMORY_GB,
          bench: bool = False, explicit_kata: bool = False, session: str | None = None, record: bool = True,
          spread: bool = False, judge: Callable[[dict], CheckResult] | None = None) -> Checked:
    """Check `path` as `kata`, record it in the history (unless `record` is False: then call `record()`),
    and point its reproduce lines at this command line. `spread`: a re-check in a process that keeps the
    reference's answers may run the learner's cases in two children (engine.Request.spread). `judge`: what turns
    the request into a result (the notebook's warm checker); by default `prefork.check`."""
    result = prejudge(kata, path, device=device, seed=seed)  # a file that cannot run costs no torch import
    if result is None:
        from checker.app import prefork

        result = (judge or prefork.check)(dict(kata=kata, path=path, device=device, seed=seed, case=case, timeout=timeout,
                                    memory_gb=memory_gb, bench=bench, spread=spread))
    drill = drills.at(store, path)
    if drill is not None and drill.kata.id != kata.id:
        drill = None  # checked as another kata (--kata): an ordinary check
    if case is None or explicit_kata:
        commands.remember(store, kata, path)
    command = reproducer(kata, path, store, device=device, timeout=timeout, memory_gb=memory_gb)
    cases = tuple(replace(c, reproduce=command(result.seed, c.name)) if c.status is not Status.PASS else c
                  for c in result.cases)
    result = replace(result, cases=cases, file=_rel(path))
    detail = f"seed {result.seed}" + (f"; watch {session}" if session else "")
    kind = "check" if case is None else "replay"
    if kind == "check" and still_the_stub(result, kata, path):
        kind = "stub"  # nothing written yet: no attempt, no failed check (`kata stats`, `kata next`)
    if drill is not None:  # kept apart from attempts at the kata: a drill never changes its status
        kind, detail = drills.CHECK if case is None else drills.REPLAY, f"{drill.key}; {detail}"
        failing = tuple(f for f, n, ok in result.families() if ok < n)
        if case is None and failing:  # a pass, or a file that ran no case, keeps the families failed before
            drill = drills.checked(store, drill, failing)
    event = Event(kata.id, kind, time.time(), verdict=result.status.value,
                  passed=sum(c.status is Status.PASS for c in result.cases), total=len(result.cases),
                  seconds=result.seconds, detail=detail, file=str(path.resolve()))
    if drill is None and case is None:  # the next hint is aimed at what this check failed
        from checker.app import aiming

        aiming.remember(store, kata, result)
    checked = Checked(kata, path, result, event, drill)
    if record:
        store.record(event)
    return checked


def still_the_stub(result: CheckResult, kata: Kata, path: Path) -> bool:
    """The check stopped at the stub's own `raise NotImplementedError` before judging a case: the learner has not
    written the entry point yet. The engine says so in its whole-file message (checker/judge/engine.py), and this
    is that message; a file that is the stub, word for word, counts too."""
    if result.status is not Status.ERROR or result.cases:
        return False
    said = tr("{entry} is not implemented yet: it still raises NotImplementedError. Write it in {file}, then check "
              "again.", entry=kata.entry, file=path.name)
    if result.message == said:
        return True
    from checker.text import i18n

    try:
        return path.read_text(encoding="utf-8") in (kata.stub(lang) for lang in i18n.LANGS)
    except (OSError, UnicodeDecodeError):
        return False


def prejudge(kata: Kata, path: Path, *, device: str = "auto", seed: int | None = None) -> CheckResult | None:
    """The verdict on a file judged from its text alone (empty, binary, a syntax error, a banned call, no entry
    point), exactly as the engine gives it, or None when the file must run. Never imports torch."""
    started = time.perf_counter()
    text, finding = static.read_source(path, kata.id)
    if finding is None:
        finding = static.inspect(text, path.name, kata.entry, kata.all_banned)
    if finding is None:
        return None
    seed = seed if seed is not None else random.SystemRandom().randrange(1, 100_000)
    return CheckResult(kata=kata.id, title=kata.title, file=str(path), device=commands.device_name(device), seed=seed,
                       status=Status.FAIL if finding.status == "fail" else Status.ERROR, message=finding.message,
                       hint=finding.hint, seconds=time.perf_counter() - started)


def record(store: Store, checked: Checked) -> None:
    store.record(checked.event)


def reproducer(kata: Kata, path: Path, store: Store, *, device: str = "auto", timeout: float = DEFAULT_TIMEOUT,
               memory_gb: float = DEFAULT_MEMORY_GB):
    """A function (seed, case) -> the command that checks that one case again, from here."""
    declared = commands._declared(path)
    mine = commands.file_of(kata, store)
    if declared == kata.id and mine is not None and mine.resolve() == path.resolve():
        target = kata.id  # the id finds this file from anywhere
    else:
        target = shlex.quote(_rel(path)) + ("" if declared == kata.id else f" --kata {kata.id}")
    options = ""
    if device != "auto":
        options += f" --device {device}"
    if timeout != DEFAULT_TIMEOUT:
        options += f" --timeout {timeout:g}"
    if memory_gb != DEFAULT_MEMORY_GB:
        options += f" --memory-gb {memory_gb:g}"
    return lambda seed, case: f"kata check {target} --seed {seed} --case {case}{options}"


def _rel(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def after_pass(kata: Kata, store: Store) -> RenderableType:
    """What to do once a kata passes: a follow-up question to think about, and the next kata."""
    from checker.app.views import say

    parts: list[RenderableType] = []
    questions = kata.text().followups
    if questions:
        asked = sum(e.kind == "followup" for e in store.events(kata.id))
        question = questions[asked % len(questions)].question
        parts.append(Text(tr("An interviewer would now ask: "), style="bold") + Text(question))
        parts.append(say(tr("Think it through, then `kata followup {id}` (all {n} questions; `kata followup {id} --answers` "
                            "for model answers).", id=kata.id, n=len(questions)), "dim"))
    ranked = [s for s in practice.suggest(store.events()) if s.kata.id != kata.id]
    if ranked:
        parts.append(say(tr("Next: `kata start {id}` — {why}.", id=ranked[0].kata.id, why=ranked[0].why)))
    return Group(*parts)


def after(checked: Checked, store: Store) -> RenderableType | None:
    """What a report shows under the cases: for a drill, the fix once it passes (or how to get a hint);
    for a kata, what to do once it passes."""
    if checked.drill is not None:
        from checker.app import drilling

        return drilling.after(checked.drill, checked.path, checked.result.passed, store, checked.event)
    return after_pass(checked.kata, store) if checked.result.passed else None


def shown(checked: Checked) -> CheckResult:
    """The result as a report shows it: a drill's report does not name the mistake (its hints do)."""
    from checker.app import drilling

    return drilling.shown(checked.result, checked.drill)


def report_for(checked: Checked, store: Store, verbose: bool = False) -> RenderableType:
    from checker.app.render import report

    return report(shown(checked), verbose=verbose, after=after(checked, store)).group()
