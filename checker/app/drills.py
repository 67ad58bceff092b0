"""Bug drills: a whole solution with one realistic slip, kept as the kata's content, and the learner's record.

    content/<m>/bugs/<key>.py   the drill: `# kata: <id>`, then the code (no docstring: `kata bug` puts the
                                kata's contract in after the first line, as `kata start` does for the stub)
    content/<m>/bugs.toml       [<key>] undo = [[old, new], …]: each old occurs once in the drill, and
                                replacing every old by its new undoes the slip (the file then passes)

<key> is a key of the spec's MISTAKES: the checker names that mistake for the drill. The lines the old
strings span are the drill's region (the second hint of its ladder).

The history keeps drills apart from attempts at the kata (the kinds in KINDS), so a drill never changes a
kata's status; a drill written by `kata bug` is remembered in the settings under its path, with the text
as written, so a check, a hint or a reveal of that file knows it is a drill. Import-light: no torch, no numpy.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

from checker.text import catalog, content
from checker.text.catalog import Kata
from checker.app.state import Event, Store

BUGS = "bugs"  # content/<m>/bugs/<key>.py and content/<m>/bugs.toml
SUFFIX = "_bug"  # kata bug writes <module>_bug.py
RECORD = "drill:"  # settings key prefix: a drill kata bug wrote, by the file's absolute path

# The history's kinds for drills; practice.progress leaves them out, so a drill never moves a kata's status.
WROTE, CHECK, REPLAY, HINT, REVEAL, INTERVIEW = ("drill", "drill-check", "drill-replay", "drill-hint", "drill-reveal",
                                                 "drill-interview")
KINDS = (WROTE, CHECK, REPLAY, HINT, REVEAL, INTERVIEW)
LADDER = 3  # hints of a drill: the failing family, the region, the mistake and its fix


@dataclass(frozen=True)
class Drill:
    kata: Kata
    key: str  # the mistake it makes: a key of the spec's MISTAKES
    undo: tuple[tuple[str, str], ...]

    @property
    def path(self) -> Path:
        return self.kata.content_dir / BUGS / f"{self.key}.py"

    def source(self) -> str:
        return self.path.read_text(encoding="utf-8")

    def written(self, lang: str | None = None) -> str:
        """The file `kata bug` writes: the kata line, the contract as the docstring (as in the stub), the code."""
        return self.kata.with_contract(self.source(), lang, drill_file=f"{self.kata.module}_bug.py")

    def undone(self, text: str | None = None) -> str:
        """`text` (default: the drill itself) with the slip undone. In a file as written the code comes after
        the contract, so each old string is looked for from the end. ValueError when one is not there."""
        text = self.source() if text is None else text
        for old, new in self.undo:
            at = text.rfind(old)
            if at < 0:
                raise ValueError(f"{self.kata.id}/{self.key}: {old!r} is not in the text")
            text = text[:at] + new + text[at + len(old):]
        return text

    def region(self, text: str | None = None) -> tuple[int, int]:
        """The lines (first, last; from 1) of `text` (default: the drill) that the old strings span. In a
        file as written the code comes after the contract, so each old is looked for from the end."""
        text = self.source() if text is None else text
        lines = []
        for old, _ in self.undo:
            at = text.rfind(old)
            if at < 0:
                raise ValueError(f"{self.kata.id}/{self.key}: {old!r} is not in the text")
            first = text.count("\n", 0, at) + 1
            lines += [first, first + old.rstrip("\n").count("\n")]
        return min(lines), max(lines)


def of(kata: Kata) -> tuple[Drill, ...]:
    """The kata's drills, by key: each content/<m>/bugs/<key>.py that bugs.toml gives an undo for."""
    tables = content.read_toml(kata.content_dir / f"{BUGS}.toml")
    folder = kata.content_dir / BUGS
    keys = sorted(p.stem for p in folder.glob("*.py")) if folder.is_dir() else []
    return tuple(Drill(kata, key, tuple((str(old), str(new)) for old, new in tables[key].get("undo", ())))
                 for key in keys if isinstance(tables.get(key), dict))


def get(kata: Kata, key: str) -> Drill | None:
    return next((d for d in of(kata) if d.key == key), None)


# ---------------------------------------------------------------- a drill kata bug wrote


@dataclass(frozen=True)
class Written:
    """A drill as `kata bug` wrote it for the learner: where, in which language, and the text it had."""

    drill: Drill
    path: Path
    text: str  # the file as written
    lang: str
    failing: tuple[str, ...] = ()  # the case families its latest full check failed

    @property
    def kata(self) -> Kata:
        return self.drill.kata

    @property
    def key(self) -> str:
        return self.drill.key

    def region(self) -> tuple[int, int]:
        return self.drill.region(self.text)


def _record_key(path: Path) -> str:
    return RECORD + str(Path(path).expanduser().resolve())


def remember(store: Store, written: Written) -> None:
    store.set(_record_key(written.path), json.dumps({"kata": written.kata.id, "key": written.key, "text": written.text,
                                                     "lang": written.lang, "failing": list(written.failing)},
                                                    ensure_ascii=False))


def at(store: Store, path: Path | str) -> Written | None:
    """The drill kata bug wrote at `path`, or None (not a drill, or its kata or drill no longer exists)."""
    raw = store.get(_record_key(Path(path)))
    try:
        data = json.loads(raw) if raw else None
        kata = catalog.find(data["kata"]) if isinstance(data, dict) else None
        drill = get(kata, data["key"]) if kata is not None else None
    except (ValueError, KeyError, TypeError):
        return None
    if drill is None:
        return None
    return Written(drill, Path(path).expanduser().resolve(), str(data.get("text", "")), str(data.get("lang", "en")),
                   tuple(data.get("failing", ())))


def checked(store: Store, written: Written, failing: tuple[str, ...]) -> Written:
    """Keep the families the latest full check failed (the first hint names them)."""
    updated = replace(written, failing=failing)
    remember(store, updated)
    return updated


# ---------------------------------------------------------------- the learner's record, from the history


def key_of(event: Event) -> str:
    """The drill an event is about: the first field of its detail ("in_place; seed 4")."""
    return (event.detail or "").split(";")[0].strip()


@dataclass
class Record:
    """One drill's record: when it was last written, whether it was ever fixed, where its hint ladder stands."""

    key: str
    seen_at: float | None = None  # last written (by kata bug or an interview)
    fixed: bool = False  # passed without a look at the answer since it was written
    given_up: bool = False  # the answer was revealed in the latest attempt, and it has not been fixed since
    hints: int = 0  # hints taken since it was last written
    revealed: bool = False  # the latest attempt looked at the answer


def records(kata: Kata, events: list[Event]) -> dict[str, Record]:
    """Every drill of `kata` (and any the history names), each with its record."""
    table = {d.key: Record(d.key) for d in of(kata)}
    for e in events:
        if e.kata != kata.id or e.kind not in KINDS:
            continue
        r = table.setdefault(key_of(e), Record(key_of(e)))
        if e.kind == WROTE or (e.kind == INTERVIEW and e.verdict is None):
            r.seen_at, r.hints, r.revealed = e.at, 0, False
        elif e.kind == HINT:
            r.hints += 1
        elif e.kind == REVEAL:
            r.revealed = r.given_up = True
        elif e.kind == CHECK and e.verdict == "pass":
            if not r.revealed:
                r.fixed, r.given_up = True, False
    return table


def pick(kata: Kata, events: list[Event]) -> Drill | None:
    """The drill to write next: one not fixed yet, least recently seen first (never seen first of all);
    once every drill is fixed, they repeat in the same order."""
    drills = of(kata)
    if not drills:
        return None
    table = records(kata, events)
    order = sorted(drills, key=lambda d: (table[d.key].fixed, table[d.key].seen_at or 0.0, d.key))
    return order[0]


@dataclass(frozen=True)
class Tally:
    kata: Kata
    fixed: int
    available: int
    given_up: int


def tally(events: list[Event]) -> list[Tally]:
    """Per kata, in the catalog's order: drills fixed, drills there are, drills given up."""
    out = []
    for kata in catalog.KATAS:
        available = {d.key for d in of(kata)}
        table = records(kata, events)
        out.append(Tally(kata, sum(r.fixed for k, r in table.items() if k in available), len(available),
                         sum(r.given_up for k, r in table.items() if k in available)))
    return out
