"""The learner's history and current kata, in one SQLite file under KATA_HOME.

SQLite (standard library) gives atomic writes that survive a crash mid-write and a lock that
keeps several `kata` processes correct at once. A store that cannot be read is moved aside and
a fresh one started: history is a convenience, never a reason for a command to fail.
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass, replace
from pathlib import Path

from checker.text.i18n import tr
from checker.places import home  # noqa: F401 — state.home is where callers look for it

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kata TEXT NOT NULL,
    kind TEXT NOT NULL,          -- see KINDS
    at REAL NOT NULL,            -- unix time
    verdict TEXT,                -- check: pass | fail | error
    passed INTEGER, total INTEGER,
    seconds REAL,                -- check: how long the check took
    detail TEXT                  -- start: file path; check: seed; interview: minutes or outcome
);
CREATE INDEX IF NOT EXISTS events_kata ON events (kata, kind);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
# Columns added after the first release: (name, declaration). Added in place, once, to older stores.
MIGRATIONS = (
    ("session", "TEXT"),  # the interview an event belongs to (None outside interviews)
    ("file", "TEXT"),  # the learner's file a start, check or reset was about (absolute)
)
COLUMNS = ("kata", "kind", "at", "verdict", "passed", "total", "seconds", "detail", "session", "file")
# What happened, one word each. An attempt at a kata opens with start, reset or interview (not resume).
KINDS = (
    "start",  # kata wrote the stub (a new file, or --force)
    "resume",  # `kata start` found the learner's file there and made it current
    "check",  # a full check (every case); detail "seed N" (+ "; watch <id>" from kata watch)
    "replay",  # a check of one case or family (--case): not counted as passing or failing the kata
    "stub",  # a full check of a file still raising the stub's NotImplementedError: not an attempt, nor a failure
    "hint", "reveal", "reset",
    "interview",  # opens (no verdict) and closes (verdict pass | timeout | quit) an interview
    "followup",  # the follow-up questions were shown; detail "answers" when the answers were too
)
INTERVIEW = "interview"  # settings key of the running interview (JSON: id, kata, started, deadline, path)
SQLITE_CORRUPT, SQLITE_NOTADB = 11, 26


@dataclass(frozen=True)
class Event:
    kata: str
    kind: str
    at: float
    verdict: str | None = None
    passed: int | None = None
    total: int | None = None
    seconds: float | None = None
    detail: str | None = None
    session: str | None = None  # interview id; filled in by Store.record while an interview runs
    file: str | None = None  # the learner's file (absolute path)


class Store:
    """History and settings. Every method degrades to a warning when the store is unusable."""

    def __init__(self, root: Path | None = None):
        self.root = root or home()
        self.path = self.root / "history.db"
        self.warnings: list[str] = []
        self._usable = True
        self._migrated = False

    def _connect(self) -> sqlite3.Connection | None:
        if not self._usable:
            return None
        try:
            if self.root.exists() and not self.root.is_dir():
                self._give_up(tr("KATA_HOME ({path}) is a file, not a directory; your progress is not being saved.",
                                 path=self.root))
                return None
            self.root.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            self._give_up(tr("cannot create or open the history store at {path} ({why}); your progress is not being "
                             "saved.", path=self.path, why=getattr(exc, "strerror", None) or exc))
            return None
        try:
            conn.execute("PRAGMA busy_timeout = 30000")
            conn.executescript(SCHEMA)  # cheap when the tables exist; recreates them after a set-aside elsewhere
            if not self._migrated:
                self._migrate(conn)
                self._migrated = True
            return conn
        except sqlite3.DatabaseError as exc:
            conn.close()
            if self._set_aside(exc):
                return self._connect()
        return None

    def _migrate(self, conn: sqlite3.Connection) -> None:
        """Add the columns an older store lacks; two processes migrating at once are both fine."""
        have = {row[1] for row in conn.execute("PRAGMA table_info(events)")}
        for name, declaration in MIGRATIONS:
            if name not in have:
                try:
                    conn.execute(f"ALTER TABLE events ADD COLUMN {name} {declaration}")
                except sqlite3.OperationalError as exc:
                    if "duplicate column" not in str(exc):
                        raise

    def _set_aside(self, exc: sqlite3.Error) -> bool:
        """Move a corrupt store out of the way (kept for inspection) and start afresh.

        Only corruption sets the store aside: a locked, read-only or unreachable store is left
        as it is (it is not broken, only unusable now) and history is off for this command.
        """
        code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
        corrupt = code in (SQLITE_CORRUPT, SQLITE_NOTADB) or "malformed" in str(exc) or "not a database" in str(exc)
        if not corrupt or not self.path.exists():
            self._give_up(tr("the history store is unusable ({why}); your progress is not saved by this command.", why=exc))
            return False
        aside = self.path.with_name(f"history.db.corrupt-{int(time.time())}-{os.getpid()}")
        try:
            os.replace(self.path, aside)
            for suffix in ("-wal", "-shm", "-journal"):
                Path(str(self.path) + suffix).unlink(missing_ok=True)
        except OSError as move_error:
            self._give_up(tr("the history store is corrupt and cannot be moved aside ({why}).", why=move_error))
            return False
        self._migrated = False
        self.warnings.append(tr("the history store was unreadable ({why}); it was moved to {path} and a new one started.",
                                why=exc, path=aside))
        return True

    def _give_up(self, message: str) -> None:
        self._usable = False
        self.warnings.append(message)

    def _write(self, sql: str, params: tuple) -> None:
        self._with_connection(lambda conn: conn.execute(sql, params))

    def _with_connection(self, work) -> None:
        conn = self._connect()
        if conn is None:
            return
        try:
            with closing(conn):
                work(conn)
        except sqlite3.DatabaseError as exc:
            if self._set_aside(exc):
                self._with_connection(work)
        except OSError as exc:
            self._give_up(tr("cannot write the history store ({why}); your progress is not being saved.", why=exc))

    def _read(self, sql: str, params: tuple = ()) -> list[tuple]:
        conn = self._connect()
        if conn is None:
            return []
        try:
            with closing(conn):
                return conn.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as exc:
            self._set_aside(exc)
            return []

    # ---------------------------------------------------------------- events

    def record(self, event: Event) -> None:
        """Append one event; while an interview runs, its kata's events are tagged with it."""
        def insert(conn: sqlite3.Connection) -> None:
            row = event if event.session is not None else replace(event, session=self._interview_of(event, conn))
            conn.execute(f"INSERT INTO events ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})",
                         tuple(getattr(row, name) for name in COLUMNS))

        self._with_connection(insert)

    def _interview_of(self, event: Event, conn: sqlite3.Connection) -> str | None:
        rows = conn.execute("SELECT value FROM settings WHERE key = ?", (INTERVIEW,)).fetchall()
        running = _interview(rows[0][0] if rows else None)
        if running and running.get("kata") == event.kata and event.at <= running.get("deadline", 0):
            return running.get("id")
        return None

    def events(self, kata: str | None = None, kind: str | None = None) -> list[Event]:
        sql, params = f"SELECT {', '.join(COLUMNS)} FROM events", []
        where = []
        if kata:
            where.append("kata = ?")
            params.append(kata)
        if kind:
            where.append("kind = ?")
            params.append(kind)
        if where:
            sql += " WHERE " + " AND ".join(where)
        return [Event(*row) for row in self._read(sql + " ORDER BY id", tuple(params))]

    # ---------------------------------------------------------------- settings

    def get(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM settings WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def set(self, key: str, value: str) -> None:
        self._write("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))

    def delete(self, key: str) -> None:
        self._write("DELETE FROM settings WHERE key = ?", (key,))

    def interview(self) -> dict | None:
        """The running interview (id, kata, started, deadline, path), or None."""
        return _interview(self.get(INTERVIEW))

    def take_warnings(self) -> list[str]:
        """The warnings so far (each once), forgotten once taken."""
        taken = list(dict.fromkeys(self.warnings))
        self.warnings.clear()
        return taken


def _interview(raw: str | None) -> dict | None:
    try:
        running = json.loads(raw) if raw else None
    except ValueError:
        return None
    return running if isinstance(running, dict) else None


def status_of(events: list[Event]) -> str:
    """new / attempted / passed / revealed, from a kata's events (revealed before passing sticks)."""
    status = "new"
    for event in events:
        if event.kind == "check" and event.verdict == "pass":
            status = "passed"
        elif event.kind == "reveal" and status != "passed":
            status = "revealed"
        elif event.kind in ("check", "start") and status == "new":
            status = "attempted"
    return status


def hints_taken(events: list[Event]) -> int:
    """Hints shown since the kata was last reset."""
    count = 0
    for event in events:
        if event.kind == "hint":
            count += 1
        elif event.kind == "reset":
            count = 0
    return count
