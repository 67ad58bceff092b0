"""`kata interview --bug`: a timed drill instead of a stub — a whole solution with one bug, a countdown, each
save checked. Recorded as drill events (checker/app/drills.py), so it never changes a kata's status."""
from __future__ import annotations

import json
import os
import time
import uuid
from pathlib import Path

from rich.console import Console
from rich.text import Text

from checker.app import drilling, drills, practice
from checker.text.catalog import Kata
from checker.errors import KATA_FAILED, OK, KataError
from checker.text.i18n import plural, tr
from checker.app.state import INTERVIEW, Event, Store


def pick(events: list[Event], topic: str | None = None, now: float | None = None) -> Kata:
    """The kata whose drill to interview on: in 'what next' order, the first with a drill not fixed yet
    (else the first with drills at all)."""
    ranked = [s.kata for s in practice.suggest(events, now, topic) if drills.of(s.kata)]
    if not ranked:
        where = tr(" in topic '{topic}'", topic=topic) if topic else ""
        raise KataError(tr("No kata{where} has drills yet.", where=where))
    tallies = {t.kata.id: t for t in drills.tally(events)}
    fresh = [k for k in ranked if tallies[k.id].fixed < tallies[k.id].available]
    return (fresh or ranked)[0]


def run(store: Store, console: Console, *, minutes: float = 30.0, topic: str | None = None,
        directory: Path = Path("."), device: str = "auto", seconds: float = 10.0, poll: bool = False,
        now: float | None = None, keys=None) -> int:
    """Write the drill (any file there is backed up), watch it against the clock, say how it went."""
    from checker.app.views import say
    from checker.app.watch import Interview, KeyReader, Watcher

    if minutes <= 0:
        raise KataError(tr("--minutes must be positive."))
    kata = pick(store.events(), topic, now)
    wrote = drilling.write(kata, directory, True, store)
    written = wrote.written
    now = time.time() if now is None else now
    running = {"id": uuid.uuid4().hex[:12], "kata": kata.id, "started": now, "deadline": now + minutes * 60,
               "minutes": minutes, "path": str(written.path), "saved": str(wrote.saved) if wrote.saved else None,
               "drill": written.key}
    store.set(INTERVIEW, json.dumps(running))  # the store tags this kata's events with the interview meanwhile
    store.record(Event(kata.id, drills.INTERVIEW, now, detail=f"{written.key}; {minutes:g} min", session=running["id"],
                       file=str(written.path)))
    console.print(say(tr("Interview: find the bug in `{file}` — {title} ({level}).", file=written.path.name,
                         title=kata.title, level=practice.difficulty_word(kata.difficulty))))
    if wrote.saved:
        console.print(say(tr("Kept your previous file as {file}.", file=os.path.relpath(wrote.saved))))
    console.print(say(tr("You have {minutes} minutes: fix it and save; each save is checked.", minutes=f"{minutes:g}")))
    keys = keys or KeyReader.from_stdin()
    watcher = Watcher(kata, written.path, store, console, keys, device=device, seconds=seconds, events=not poll,
                      interview=Interview(running["id"], running["deadline"], running["started"]),
                      prompt=tr("Find the bug in {file}, fix it and save: each save is checked.", file=written.path.name))
    outcome = watcher.run()
    took = time.time() - running["started"]
    store.record(Event(kata.id, drills.INTERVIEW, time.time(), verdict=outcome, seconds=took,
                       detail=f"{written.key}; {outcome} after {took:.0f} s", session=running["id"]))
    if (store.interview() or {}).get("id") == running["id"]:
        store.delete(INTERVIEW)
    mine = [e for e in store.events(kata.id) if e.session == running["id"]]
    count = {kind: sum(e.kind == kind for e in mine) for kind in (drills.HINT, drills.REVEAL, drills.CHECK)}
    helped = tr("{hints}, {reveals}, {checks}", hints=plural(count[drills.HINT], "{n} hint", "{n} hints"),
                reveals=plural(count[drills.REVEAL], "{n} reveal", "{n} reveals"),
                checks=plural(count[drills.CHECK], "{n} check", "{n} checks"))
    if outcome == "pass":
        label = kata.text().mistakes[written.key].label
        console.print(Text(tr("Fixed in {time} ({helped}): {label}", time=practice.duration(took), helped=helped,
                              label=label), style="bold green"))
        return OK
    if outcome == "timeout":
        console.print(say(tr("Time's up after {minutes} minutes ({helped}). Keep going with `kata watch`, or see the "
                             "bug with `kata reveal`.", minutes=f"{minutes:g}", helped=helped), "bold red"))
    else:
        console.print(say(tr("Interview stopped after {time} ({helped}); it is recorded as not passed.",
                             time=practice.duration(took), helped=helped)))
    return KATA_FAILED

