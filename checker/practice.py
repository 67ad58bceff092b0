"""Progress, what to practise next, and timed interviews, read from the history of events.

Everything here is a pure function of the events (and of `now`), so it is tested without a
clock or a terminal. Import-light: no torch, no numpy (`kata list`, `stats`, `next` use it).

An *attempt* at a kata opens with `kata start`, `kata reset` or an interview, and ends with its
first passing check; its time to pass is the time between the two. An attempt passed without a
hint or a reveal is *clean*; a kata with a clean pass (or a passed interview) is *mastered*.
"""
from __future__ import annotations

import datetime as dt
import difflib
import json
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from checker import catalog, commands
from checker.catalog import Kata
from checker.errors import KataError
from checker.state import INTERVIEW, Event, Store, status_of

OPENS_ATTEMPT = ("start", "reset", "interview")
DAY = 86_400.0
# Days until the next review after 1, 2, 3, … clean passes (a review doubles-ish the gap, as in Leitner boxes).
REVIEW_DAYS = (1, 3, 7, 14, 30, 60)
# A time to pass slower than this (seconds, by difficulty) asks for earlier reviews.
SLOW = {"easy": 10 * 60, "medium": 20 * 60, "hard": 30 * 60}
DIFFICULTY_ORDER = {"easy": 0, "medium": 1, "hard": 2}


@dataclass(frozen=True)
class Progress:
    """One kata's record, summarised from its events."""

    kata: str
    status: str  # new | attempted | passed | revealed
    checks: int = 0
    fails: int = 0  # checks that did not pass (wrong answer or error)
    clean_passes: int = 0  # attempts passed without a hint or a reveal
    best_seconds: float | None = None  # fastest start → first pass, attempts without a reveal
    last_at: float | None = None  # last practised: any event
    last_pass_at: float | None = None
    last_verdict: str | None = None  # of the latest check
    revealed_at: float | None = None  # latest reveal
    opened_at: float | None = None  # when the latest attempt opened

    @property
    def mastered(self) -> bool:
        return self.clean_passes > 0

    @property
    def revealed_since_pass(self) -> bool:
        return self.revealed_at is not None and (self.last_pass_at is None or self.revealed_at > self.last_pass_at)


def progress(kata_id: str, events: list[Event]) -> Progress:
    """Summarise one kata's events (in the order they happened)."""
    mine = [e for e in events if e.kata == kata_id]
    checks = [e for e in mine if e.kind == "check"]
    opened: float | None = None  # the open attempt's start, None when no attempt is open
    hinted = revealed = False
    clean, best = 0, None
    last_pass = revealed_at = None
    for e in mine:
        if e.kind in OPENS_ATTEMPT and e.verdict is None:  # an interview's closing event has a verdict
            opened, hinted, revealed = e.at, False, False
        elif e.kind == "hint":
            hinted = True
        elif e.kind == "reveal":
            revealed, revealed_at = True, e.at
        elif e.kind == "check" and e.verdict == "pass":
            last_pass = e.at
            if opened is not None:
                if not revealed:
                    best = e.at - opened if best is None else min(best, e.at - opened)
                clean += not (hinted or revealed)
                opened = None
    return Progress(
        kata=kata_id, status=status_of(mine), checks=len(checks),
        fails=sum(e.verdict != "pass" for e in checks),
        clean_passes=clean, best_seconds=best,
        last_at=mine[-1].at if mine else None, last_pass_at=last_pass,
        last_verdict=checks[-1].verdict if checks else None, revealed_at=revealed_at,
        opened_at=opened,
    )


def progress_all(events: list[Event]) -> dict[str, Progress]:
    return {kata.id: progress(kata.id, events) for kata in catalog.KATAS}


# ---------------------------------------------------------------- what next


@dataclass(frozen=True)
class Suggestion:
    kata: Kata
    tier: int  # 0 revealed, 1 failing, 2 due for review, 3 new, 4 not due yet
    score: float  # higher first within a tier
    why: str


def review_days(p: Progress, kata: Kata) -> float:
    """The gap before the next review: grows with clean passes, shrinks for slow or helped passes."""
    days = float(REVIEW_DAYS[min(p.clean_passes, len(REVIEW_DAYS)) - 1]) if p.clean_passes else 1.0
    if p.best_seconds is not None and p.best_seconds > SLOW.get(kata.difficulty, SLOW["medium"]):
        days /= 2
    return days


def suggest(events: list[Event], now: float | None = None, topic: str | None = None) -> list[Suggestion]:
    """Every kata, the one to practise next first, each with the reason."""
    now = time.time() if now is None else now
    out = []
    for index, kata in enumerate(catalog.KATAS):
        if topic and kata.topic != topic:
            continue
        p = progress(kata.id, events)
        out.append(_suggestion(kata, p, now, index))
    return sorted(out, key=lambda s: (s.tier, -s.score))


def _suggestion(kata: Kata, p: Progress, now: float, index: int) -> Suggestion:
    if p.status == "new" or p.last_at is None:
        rank = DIFFICULTY_ORDER.get(kata.difficulty, 1)
        return Suggestion(kata, 3, -rank - index / 100, "not practised yet")
    if p.revealed_since_pass:
        return Suggestion(kata, 0, p.revealed_at, f"you revealed the reference {ago(p.revealed_at, now)} "
                                                  "and have not passed it on your own since")
    if p.last_verdict is not None and p.last_verdict != "pass":
        return Suggestion(kata, 1, p.last_at, f"your last check failed ({ago(p.last_at, now)}; "
                                              f"{p.fails} of {p.checks} checks failed so far)")
    if p.last_pass_at is None:
        return Suggestion(kata, 1, p.last_at, f"you started it {ago(p.last_at, now)} and have not passed it yet")
    days = review_days(p, kata)
    due = (now - p.last_pass_at) / (days * DAY)
    slow = p.best_seconds is not None and p.best_seconds > SLOW.get(kata.difficulty, SLOW["medium"])
    reason = f"last passed {ago(p.last_pass_at, now)}"
    if slow:
        reason += f"; slow: your best time is {duration(p.best_seconds)}"
    elif not p.mastered:
        reason += "; never passed without a hint or a reveal"
    if due >= 1:
        return Suggestion(kata, 2, due, f"{reason}; due for review (every {'day' if days == 1 else f'{days:g} days'})")
    return Suggestion(kata, 4, due, f"{reason}; next review in {duration((1 - due) * days * DAY)}")


# ---------------------------------------------------------------- stats


@dataclass(frozen=True)
class TopicStats:
    topic: str
    katas: int
    passed: int
    mastered: int
    revealed: int
    checks: int


def topic_stats(events: list[Event]) -> list[TopicStats]:
    table = progress_all(events)
    rows = []
    for topic in dict.fromkeys(k.topic for k in catalog.KATAS):
        ps = [table[k.id] for k in catalog.KATAS if k.topic == topic]
        rows.append(TopicStats(topic, len(ps), sum(p.status == "passed" for p in ps), sum(p.mastered for p in ps),
                               sum(p.status == "revealed" for p in ps), sum(p.checks for p in ps)))
    return rows


def streak(events: list[Event], now: float | None = None) -> int:
    """Days in a row, up to today (or yesterday, when today has no check yet), with at least one check."""
    now = time.time() if now is None else now
    days = {dt.date.fromtimestamp(e.at) for e in events if e.kind == "check"}
    day = dt.date.fromtimestamp(now)
    if day not in days:
        day -= dt.timedelta(days=1)
    count = 0
    while day in days:
        count += 1
        day -= dt.timedelta(days=1)
    return count


def failing_most(events: list[Event], limit: int = 3) -> list[Progress]:
    ranked = sorted((p for p in progress_all(events).values() if p.fails), key=lambda p: (-p.fails, -(p.last_at or 0)))
    return ranked[:limit]


def stats_view(events: list[Event], now: float | None = None) -> RenderableType:
    table = Table(header_style="bold", title="progress by topic", title_justify="left")
    for column in ("topic", "katas", "passed", "mastered", "revealed", "checks"):
        table.add_column(column, justify="left" if column == "topic" else "right")
    for row in topic_stats(events):
        colour = "green" if row.passed == row.katas else ("yellow" if row.passed else "dim")
        table.add_row(row.topic, str(row.katas), f"[{colour}]{row.passed}[/]", str(row.mastered),
                      str(row.revealed), str(row.checks))
    days = streak(events, now)
    parts: list[RenderableType] = [table, Text(f"\nstreak: {days} day{'s' * (days != 1)} in a row with a check")]
    interviews = [e for e in events if e.kind == "interview" and e.verdict is not None]
    if interviews:
        passed = [e for e in interviews if e.verdict == "pass"]
        line = (f"interviews: {len(passed)} passed, {sum(e.verdict == 'timeout' for e in interviews)} out of time, "
                f"{sum(e.verdict == 'quit' for e in interviews)} stopped")
        if passed:
            best = min(passed, key=lambda e: e.seconds or 0)
            line += f"; fastest: {best.kata} in {duration(best.seconds)}"
        parts.append(Text(line))
    worst = failing_most(events)
    if worst:
        parts.append(Text("fail most:", style="bold"))
        for p in worst:
            parts.append(Text(f"  {p.kata}: {p.fails} of {p.checks} checks failed"
                              + (" (passed since)" if p.last_verdict == "pass" else "")))
    else:
        parts.append(Text("no failing checks yet", style="dim"))
    return Group(*parts)


# ---------------------------------------------------------------- interviews


def pick_for_interview(events: list[Event], topic: str | None = None, now: float | None = None) -> tuple[Kata, str]:
    """The kata to interview on: the first not mastered in 'what next' order, and why."""
    if topic is not None and topic not in {k.topic for k in catalog.KATAS}:
        topics = ", ".join(dict.fromkeys(k.topic for k in catalog.KATAS))
        raise KataError(f"No topic named '{topic}'. Topics: {topics}.")
    ranked = suggest(events, now, topic)
    fresh = [s for s in ranked if not progress(s.kata.id, events).mastered]
    if fresh:
        return fresh[0].kata, fresh[0].why
    return ranked[0].kata, f"you have mastered every kata{' in ' + topic if topic else ''}; this one is the most due"


def begin_interview(kata: Kata, store: Store, directory: Path, minutes: float, now: float | None = None) -> dict:
    """Write a fresh stub (backing up any file there) and start the clock; returns the interview."""
    if minutes <= 0:
        raise KataError("--minutes must be positive.")
    now = time.time() if now is None else now
    directory = directory.expanduser()
    if directory.exists() and not directory.is_dir():
        raise KataError(f"{directory} is not a directory.")
    path = directory / kata.filename
    saved = commands.restart(kata, path)
    running = {"id": uuid.uuid4().hex[:12], "kata": kata.id, "started": now, "deadline": now + minutes * 60,
               "minutes": minutes, "path": str(path.resolve()), "saved": str(saved) if saved else None}
    commands.remember(store, kata, path)
    store.set(INTERVIEW, json.dumps(running))
    store.record(Event(kata.id, "interview", now, detail=f"{minutes:g} min", session=running["id"]))
    return running


def end_interview(store: Store, running: dict, outcome: str, now: float | None = None) -> float:
    """Close the interview with pass | timeout | quit; returns the seconds it took."""
    now = time.time() if now is None else now
    seconds = now - running["started"]
    store.record(Event(running["kata"], "interview", now, verdict=outcome, seconds=seconds,
                       detail=f"{outcome} after {duration(seconds)}", session=running["id"]))
    current = store.interview()
    if current and current.get("id") == running["id"]:
        store.delete(INTERVIEW)
    return seconds


def interview_summary(events: list[Event], session: str) -> dict[str, int]:
    """How many checks, hints and reveals the interview `session` saw."""
    mine = [e for e in events if e.session == session]
    return {kind: sum(e.kind == kind for e in mine) for kind in ("check", "hint", "reveal")}


# ---------------------------------------------------------------- reveal --diff


def side_by_side(mine: str, reference: str, left: str = "yours", right: str = "reference") -> Table:
    """Two columns, lines aligned by difflib: changed lines yellow, only-yours red, only-reference green."""
    a, b = mine.splitlines(), reference.splitlines()
    table = Table(header_style="bold", expand=True, pad_edge=False)
    for title in ("", left, "", right):
        if title:
            table.add_column(title, ratio=1, overflow="fold")
        else:  # a line-number column
            table.add_column("", justify="right", style="dim", no_wrap=True)
    styles = {"equal": (None, None), "replace": ("yellow", "yellow"), "delete": ("red", None), "insert": (None, "green")}
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        left_style, right_style = styles[op]
        for k in range(max(i2 - i1, j2 - j1)):
            i, j = i1 + k, j1 + k
            table.add_row(str(i + 1) if i < i2 else "", Text(a[i], style=left_style or "") if i < i2 else Text(""),
                          str(j + 1) if j < j2 else "", Text(b[j], style=right_style or "") if j < j2 else Text(""))
    return table


# ---------------------------------------------------------------- words


def duration(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    if seconds < DAY:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // int(DAY)} d"


def ago(at: float | None, now: float | None = None) -> str:
    if at is None:
        return "never"
    now = time.time() if now is None else now
    seconds = now - at
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    if seconds < DAY:
        return f"{int(seconds // 3600)} h ago"
    days = int(seconds // DAY)
    return "yesterday" if days == 1 else f"{days} days ago"
