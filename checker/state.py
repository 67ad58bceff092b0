"""The learner's history and current kata, in one SQLite file under KATA_HOME.

SQLite (standard library) gives atomic writes that survive a crash mid-write and a lock that
keeps several `kata` processes correct at once. A store that cannot be read is moved aside and
a fresh one started: history is a convenience, never a reason for a command to fail.
"""
from __future__ import annotations

import os
import sqlite3
import sys
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kata TEXT NOT NULL,
    kind TEXT NOT NULL,          -- start | check | hint | reveal | reset
    at REAL NOT NULL,            -- unix time
    verdict TEXT,                -- check: pass | fail | error
    passed INTEGER, total INTEGER,
    seconds REAL,                -- check: how long the check took
    detail TEXT                  -- start: file path; check: seed; interview id when in an interview
);
CREATE INDEX IF NOT EXISTS events_kata ON events (kata, kind);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def home() -> Path:
    if os.environ.get("KATA_HOME"):
        return Path(os.environ["KATA_HOME"]).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or (Path.home() / ".local" / "share")
    return Path(base) / "kata"


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


class Store:
    """History and settings. Every method degrades to a warning when the store is unusable."""

    def __init__(self, root: Path | None = None):
        self.root = root or home()
        self.path = self.root / "history.db"
        self.warnings: list[str] = []
        self._usable = True

    def _connect(self) -> sqlite3.Connection | None:
        if not self._usable:
            return None
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            conn.execute("PRAGMA busy_timeout = 30000")
            conn.executescript(SCHEMA)
            return conn
        except sqlite3.DatabaseError as exc:
            if self._set_aside(exc):
                return self._connect()
        except OSError as exc:
            self._give_up(f"cannot use the history store at {self.path}: {exc.strerror or exc}")
        return None

    def _set_aside(self, exc: Exception) -> bool:
        """Move an unreadable store out of the way (kept for inspection) and start afresh."""
        if not self.path.exists() or "locked" in str(exc):
            self._give_up(f"the history store is unusable ({exc}); history is off for this command")
            return False
        aside = self.path.with_name(f"history.db.corrupt-{int(time.time())}")
        try:
            os.replace(self.path, aside)
            for suffix in ("-wal", "-shm", "-journal"):
                Path(str(self.path) + suffix).unlink(missing_ok=True)
        except OSError as move_error:
            self._give_up(f"the history store is corrupt and cannot be moved aside ({move_error})")
            return False
        self.warnings.append(f"the history store was unreadable ({exc}); it was moved to {aside} and a new one started")
        return True

    def _give_up(self, message: str) -> None:
        self._usable = False
        self.warnings.append(message)

    def _write(self, sql: str, params: tuple) -> None:
        conn = self._connect()
        if conn is None:
            return
        try:
            with closing(conn):
                conn.execute(sql, params)
        except sqlite3.DatabaseError as exc:
            if self._set_aside(exc):
                self._write(sql, params)
        except OSError as exc:
            self._give_up(f"cannot write the history store: {exc}")

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
        self._write(
            "INSERT INTO events (kata, kind, at, verdict, passed, total, seconds, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (event.kata, event.kind, event.at, event.verdict, event.passed, event.total, event.seconds, event.detail),
        )

    def events(self, kata: str | None = None, kind: str | None = None) -> list[Event]:
        sql, params = "SELECT kata, kind, at, verdict, passed, total, seconds, detail FROM events", []
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

    def flush_warnings(self) -> None:
        for warning in dict.fromkeys(self.warnings):
            print(f"kata: warning: {warning}", file=sys.stderr)
        self.warnings.clear()


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
