"""Progress, what to practise next, and timed interviews, read from the history of events.

Everything here is a pure function of the events (and of `now`), so it is tested without a
clock or a terminal. Import-light: no torch, no numpy (`kata list`, `stats`, `next` use it).

One definition of progress serves every view (list, stats, next, interview, the overview):

- An *attempt* at a kata opens with `kata start` (a fresh stub), `kata reset` or an interview, and
  ends with its first passing full check. Its time to pass is the time between the two. A hint or a
  look at the reference during the attempt makes its pass *helped*; otherwise it is *clean*.
  Looking at the reference after passing (to compare) costs nothing.
- A full check is one `kata check` of every case. `--case` replays are not checks: they neither
  pass nor fail a kata. A `kata watch` session counts as one check, failed if it never passed.
- A kata's status is the best it has reached: *mastered* (a clean pass), *passed* (a helped pass),
  *revealed* (saw the reference, never passed), *attempted* (started or checked), *new*.
- The hint ladder restarts with each attempt.
- A new attempt (a reset, `start --force`) keeps the status earned: a passed kata being redone is still
  passed everywhere; `kata next` says it is being redone.
"""
from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass

from checker.text import catalog
from checker.app import drills
from checker.text.catalog import Kata
from checker.errors import KataError
from checker.text.i18n import tr
from checker.app.state import Event

OPENS_ATTEMPT = ("start", "reset", "interview")
STATUSES = ("new", "attempted", "revealed", "passed", "mastered")  # worst to best
DAY = 86_400.0
# Days until the next review after 1, 2, 3, … clean passes (a review doubles-ish the gap, as in Leitner boxes).
REVIEW_DAYS = (1, 3, 7, 14, 30, 60)
# A time to pass slower than this (seconds, by difficulty) asks for earlier reviews.
SLOW = {"easy": 10 * 60, "medium": 20 * 60, "hard": 30 * 60}
DIFFICULTY_ORDER = {"easy": 0, "medium": 1, "hard": 2}


def status_word(status: str) -> str:
    return {"new": tr("new"), "attempted": tr("attempted"), "revealed": tr("revealed"), "passed": tr("passed"),
            "mastered": tr("mastered")}[status]


def legend() -> str:
    return tr("attempted: not passed yet · revealed: saw the reference before passing · passed: with a hint or "
              "the reference · mastered: passed with no help")


@dataclass(frozen=True)
class Progress:
    """One kata's record, summarised from its events."""

    kata: str
    status: str  # one of STATUSES
    checks: int = 0  # full checks (a watch session counts once)
    fails: int = 0  # of those, the ones that did not pass
    clean_passes: int = 0  # attempts passed without a hint or a look at the reference
    best_seconds: float | None = None  # fastest start → first pass, of attempts passed without the reference
    last_at: float | None = None  # last practised: any event
    last_pass_at: float | None = None
    last_verdict: str | None = None  # of the latest full check
    opened_at: float | None = None  # when the open attempt opened (None: no attempt open)
    revealed_at: float | None = None  # when the open attempt looked at the reference (None: it did not)
    hints: int = 0  # hints taken in the current attempt: where the ladder stands
    attempt_checks: int = 0  # full checks since the open attempt opened (0: its stub is untouched by a check)

    @property
    def mastered(self) -> bool:
        return self.clean_passes > 0

    @property
    def needs_redo(self) -> bool:
        """The open attempt looked at the reference and has not passed since."""
        return self.revealed_at is not None


def _is_watch(event: Event) -> str | None:
    """The watch session a check belongs to, from its detail ("seed 4; watch a1b2")."""
    detail = event.detail or ""
    return detail.rsplit("watch ", 1)[1].strip() if "watch " in detail else None


def progress(kata_id: str, events: list[Event]) -> Progress:
    """Summarise one kata's events (in the order they happened)."""
    # A drill is not an attempt, and neither is a check of the untouched stub (kind "stub": nothing written yet).
    mine = [e for e in events if e.kata == kata_id and e.kind not in drills.KINDS and e.kind != "stub"]
    opened = None  # when the open attempt opened; None before any opening, or once it passed
    open_attempt = bool(mine)  # a kata checked or revealed before any start still has an attempt going
    hinted = False
    revealed_at = None
    hints = attempt_checks = 0
    clean, best, passed, ever_revealed = 0, None, False, False
    last_pass = last_verdict = None
    checks = fails = 0
    watch: dict[str, bool] = {}  # watch session -> passed
    for e in mine:
        if e.kind in OPENS_ATTEMPT and e.verdict is None:  # an interview's closing event has a verdict
            opened, open_attempt, hinted, revealed_at, hints, attempt_checks = e.at, True, False, None, 0, 0
        elif e.kind == "hint":
            hinted, hints = True, hints + 1
        elif e.kind == "reveal":
            ever_revealed = True
            if open_attempt:
                revealed_at = e.at
        elif e.kind == "check":
            session = _is_watch(e)
            if session is None:
                checks += 1
                fails += e.verdict != "pass"
            else:
                watch[session] = watch.get(session, False) or e.verdict == "pass"
            last_verdict = e.verdict
            attempt_checks += 1
            if e.verdict == "pass":
                passed, last_pass = True, e.at
                if open_attempt:
                    if opened is not None and revealed_at is None:
                        best = e.at - opened if best is None else min(best, e.at - opened)
                    clean += not (hinted or revealed_at is not None)
                    opened, open_attempt, revealed_at, attempt_checks = None, False, None, 0
    checks += len(watch)
    fails += sum(not ok for ok in watch.values())
    status = ("mastered" if clean else "passed" if passed else "revealed" if ever_revealed
              else "attempted" if mine and any(e.kind != "followup" for e in mine) else "new")
    return Progress(kata=kata_id, status=status, checks=checks, fails=fails, clean_passes=clean, best_seconds=best,
                    last_at=mine[-1].at if mine else None, last_pass_at=last_pass, last_verdict=last_verdict,
                    opened_at=opened if open_attempt else None, revealed_at=revealed_at, hints=hints,
                    attempt_checks=attempt_checks if opened is not None and open_attempt else 0)


def progress_all(events: list[Event]) -> dict[str, Progress]:
    return {kata.id: progress(kata.id, events) for kata in catalog.KATAS}


@dataclass(frozen=True)
class Overview:
    """Where the learner stands, in one line: what `kata` alone and `kata list` say."""

    total: int
    passed: int  # passed or mastered
    mastered: int


def overview(events: list[Event]) -> Overview:
    table = progress_all(events)
    return Overview(len(table), sum(p.status in ("passed", "mastered") for p in table.values()),
                    sum(p.status == "mastered" for p in table.values()))


# ---------------------------------------------------------------- what next


@dataclass(frozen=True)
class Suggestion:
    kata: Kata
    tier: int  # 0 looked at the reference, 1 failing, 2 due for review, 3 new, 4 not due yet
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
    topic = topic_id(topic) if topic is not None else None
    out = []
    for index, kata in enumerate(catalog.KATAS):
        if topic and kata.topic != topic:
            continue
        out.append(_suggestion(kata, progress(kata.id, events), now, index))
    return sorted(out, key=lambda s: (s.tier, -s.score))


def _suggestion(kata: Kata, p: Progress, now: float, index: int) -> Suggestion:
    if p.status == "new" or p.last_at is None:
        rank = DIFFICULTY_ORDER.get(kata.difficulty, 1)
        return Suggestion(kata, 3, -rank - index / 100, tr("not practised yet"))
    if p.needs_redo:
        return Suggestion(kata, 0, p.revealed_at, tr("you looked at the reference {when} and have not passed it on "
                                                     "your own since", when=ago(p.revealed_at, now)))
    if p.opened_at is not None and p.last_pass_at is not None:  # a redo (reset, start --force) of a kata passed before
        if p.attempt_checks == 0:
            return Suggestion(kata, 1, p.last_at, tr("passed before; redoing it from the stub (since {when})",
                                                     when=ago(p.opened_at, now)))
        return Suggestion(kata, 1, p.last_at, tr("passed before; redoing it, and your last check failed ({when})",
                                                 when=ago(p.last_at, now)))
    if p.opened_at is not None or p.last_pass_at is None:
        if p.last_verdict not in (None, "pass"):
            return Suggestion(kata, 1, p.last_at, tr("your last check failed ({when}; {fails} of {checks} checks "
                                                     "failed so far)", when=ago(p.last_at, now), fails=p.fails,
                                                     checks=p.checks))
        return Suggestion(kata, 1, p.last_at, tr("you started it {when} and have not passed it yet",
                                                 when=ago(p.opened_at or p.last_at, now)))
    days = review_days(p, kata)
    due = (now - p.last_pass_at) / (days * DAY)
    slow = p.best_seconds is not None and p.best_seconds > SLOW.get(kata.difficulty, SLOW["medium"])
    reason = tr("last passed {when}", when=ago(p.last_pass_at, now))
    if slow:
        reason += tr("; slow: your best time is {time}", time=duration(p.best_seconds))
    elif not p.mastered:
        reason += tr("; never passed without a hint or the reference")
    if due >= 1:
        every = tr("every day") if days == 1 else tr("every {days} days", days=f"{days:g}")
        return Suggestion(kata, 2, due, reason + tr("; due for review ({every})", every=every))
    return Suggestion(kata, 4, due, reason + tr("; next review in {time}", time=duration((1 - due) * days * DAY)))


# ---------------------------------------------------------------- stats


@dataclass(frozen=True)
class TopicStats:
    topic: str
    katas: int
    passed: int  # passed or mastered
    mastered: int
    revealed: int  # saw the reference and never passed
    checks: int


def topic_stats(events: list[Event]) -> list[TopicStats]:
    table = progress_all(events)
    rows = []
    for topic in catalog.TOPICS:
        ps = [table[k.id] for k in catalog.KATAS if k.topic == topic]
        if ps:
            rows.append(TopicStats(topic, len(ps), sum(p.status in ("passed", "mastered") for p in ps),
                                   sum(p.status == "mastered" for p in ps), sum(p.status == "revealed" for p in ps),
                                   sum(p.checks for p in ps)))
    return rows


def streak(events: list[Event], now: float | None = None) -> int:
    """Days in a row, up to today (or yesterday, when today has no check yet), with at least one check."""
    now = time.time() if now is None else now
    days = {dt.date.fromtimestamp(e.at) for e in events if e.kind in ("check", drills.CHECK)}
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


def topic_name(topic: str) -> str:
    return {"attention": tr("attention"), "helpers": tr("helpers"), "rl": tr("RL"),
            "transformer": tr("transformer"), "training": tr("training"),
            "alignment": tr("alignment"), "inference": tr("inference"), "classic": tr("classic ML"),
            "kernels": tr("kernels")}.get(topic, topic)


def topic_id(name: str) -> str:
    """The topic `name` stands for: its id or the name `kata list` shows for it ("RL", "classic ML"), in either
    language, in any case, with "-" or "_" for a space."""
    from checker.text import i18n

    def key(text: str) -> str:
        return " ".join(text.replace("-", " ").replace("_", " ").casefold().split())

    wanted = key(name)
    for topic in catalog.TOPICS:
        names = {topic}
        for lang in i18n.LANGS:
            with i18n.speaking(lang):
                names.add(topic_name(topic))
        if wanted in {key(n) for n in names}:
            return topic
    raise KataError(tr("No topic named '{topic}'. Topics: {topics}.", topic=name, topics=", ".join(catalog.TOPICS)))


def difficulty_word(difficulty: str) -> str:
    return {"easy": tr("easy"), "medium": tr("medium"), "hard": tr("hard")}.get(difficulty, difficulty)


# ---------------------------------------------------------------- interviews


def pick_for_interview(events: list[Event], topic: str | None = None, now: float | None = None) -> tuple[Kata, str]:
    """The kata to interview on: the first not mastered in 'what next' order, and why."""
    ranked = suggest(events, now, topic)
    if not ranked:
        raise KataError(tr("No katas in topic '{topic}' yet.", topic=topic))
    fresh = [s for s in ranked if not progress(s.kata.id, events).mastered]
    if fresh:
        return fresh[0].kata, fresh[0].why
    if topic:
        return ranked[0].kata, tr("you have mastered every kata in {topic}; this one is the most due", topic=topic)
    return ranked[0].kata, tr("you have mastered every kata; this one is the most due")


def interview_summary(events: list[Event], session: str) -> dict[str, int]:
    """How many checks, hints and reveals the interview `session` saw."""
    mine = [e for e in events if e.session == session]
    return {kind: sum(e.kind == kind for e in mine) for kind in ("check", "hint", "reveal")}


# ---------------------------------------------------------------- words


def duration(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return tr("{s}s", s=seconds)
    if seconds < 3600:
        return tr("{m}m{s:02d}s", m=seconds // 60, s=seconds % 60)
    if seconds < DAY:
        return tr("{h}h{m:02d}m", h=seconds // 3600, m=seconds % 3600 // 60)
    return tr("{d} d", d=seconds // int(DAY))


def ago(at: float | None, now: float | None = None) -> str:
    if at is None:
        return tr("never")
    now = time.time() if now is None else now
    seconds = now - at
    if seconds < 60:
        return tr("just now")
    if seconds < 3600:
        return tr("{n} min ago", n=int(seconds // 60))
    if seconds < DAY:
        return tr("{n} h ago", n=int(seconds // 3600))
    days = int(seconds // DAY)
    return tr("yesterday") if days == 1 else tr("{n} days ago", n=days)
