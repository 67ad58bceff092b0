"""The history store: several writers at once, crashes mid-write, corrupt and unusable stores.

History is a convenience: whatever happens to the store, commands keep working, say what
happened once, and never touch the learner's kata files.
"""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from checker.app.state import INTERVIEW, Event, Store
from cli import app
from tests.conftest import ROOT

WRITER = r"""
import os, sys, time
sys.path.insert(0, {root!r})
from checker.app.state import Event, Store
who, n, go = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
while not os.path.exists(go):  # every writer starts at the same moment
    time.sleep(0.001)
store = Store()
for i in range(n):
    store.record(Event("gae", "check", time.time(), verdict="pass", passed=i, total=n, detail=f"{{who}}:{{i}}"))
    store.set(f"writer-{{who}}", str(i))
if store.warnings:
    print("\n".join(store.warnings), file=sys.stderr)
    sys.exit(3)
"""


def _legacy_store(path: Path, rows: int = 0) -> None:
    """A store as the first release wrote it: no `session` column."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as conn:
        conn.executescript("""
            CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, kata TEXT NOT NULL, kind TEXT NOT NULL,
                                 at REAL NOT NULL, verdict TEXT, passed INTEGER, total INTEGER, seconds REAL, detail TEXT);
            CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """)
        conn.executemany("INSERT INTO events (kata, kind, at, detail) VALUES (?, ?, ?, ?)",
                         [("gae", "hint", 1000.0 + i, str(i)) for i in range(rows)])


def test_eight_concurrent_writers_lose_and_duplicate_nothing(kata_home, tmp_path):
    _legacy_store(kata_home / "history.db")  # and all eight race to migrate it
    go, n, writers = tmp_path / "go", 25, 8
    script = WRITER.format(root=str(ROOT))
    procs = [subprocess.Popen([sys.executable, "-c", script, str(w), str(n), str(go)], stderr=subprocess.PIPE, text=True)
             for w in range(writers)]
    time.sleep(0.5)
    go.touch()
    for proc in procs:
        _, errors = proc.communicate(timeout=120)
        assert proc.returncode == 0, errors

    store = Store()
    details = [e.detail for e in store.events("gae", "check")]
    assert len(details) == writers * n, f"{writers * n - len(details)} events lost"
    assert len(set(details)) == len(details), "an event was written twice"
    assert set(details) == {f"{w}:{i}" for w in range(writers) for i in range(n)}
    assert all(store.get(f"writer-{w}") == str(n - 1) for w in range(writers))
    assert not store.warnings


def test_a_crash_mid_write_leaves_the_committed_history(kata_home):
    store = Store()
    store.record(Event("gae", "start", 1.0, detail="before the crash"))
    crash = f"""
import os, signal, sqlite3
conn = sqlite3.connect({str(store.path)!r}, isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
for i in range(500):
    conn.execute("INSERT INTO events (kata, kind, at) VALUES ('gae', 'check', ?)", (float(i),))
os.kill(os.getpid(), signal.SIGKILL)  # dies holding the write lock, its journal hot
"""
    proc = subprocess.run([sys.executable, "-c", crash], timeout=60)
    assert proc.returncode == -signal.SIGKILL

    after = Store()
    assert [e.detail for e in after.events()] == ["before the crash"]  # the half-written transaction is gone
    after.record(Event("gae", "hint", 2.0, detail="1"))  # and the store takes writes again
    assert [e.kind for e in after.events()] == ["start", "hint"]
    assert not after.warnings


def test_an_old_store_is_migrated_in_place(kata_home):
    _legacy_store(kata_home / "history.db", rows=3)
    store = Store()
    assert [e.detail for e in store.events()] == ["0", "1", "2"]
    assert all(e.session is None for e in store.events())
    store.record(Event("gae", "check", 5.0, verdict="fail", session="abc"))
    assert store.events(kind="check")[0].session == "abc"
    assert not store.warnings


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_corrupt_store_is_set_aside_and_commands_still_work(kata_home, tmp_path, monkeypatch, damage):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(app, ["start", "gae"]).exit_code == 0
    Store().record(Event("gae", "hint", 0.0))
    with sqlite3.connect(kata_home / "history.db") as conn:  # rows over many pages, so a truncation cuts into them
        conn.executemany("INSERT INTO events (kata, kind, at, detail) VALUES ('gae', 'check', ?, ?)",
                         [(float(i), "x" * 200) for i in range(400)])
    mine = (tmp_path / "gae.py").read_bytes()
    db = kata_home / "history.db"
    if damage == "garbage":
        db.write_bytes(b"this is not a database, it is " + os.urandom(3000))
    else:
        with db.open("r+b") as handle:
            handle.truncate(db.stat().st_size // 3)
    broken = db.read_bytes()

    result = runner.invoke(app, ["list"])
    assert result.exit_code == 0, result.output
    assert "moved to" in result.stderr and "history.db.corrupt-" in result.stderr
    aside = list(kata_home.glob("history.db.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == broken, "the broken store must be kept for inspection"

    result = runner.invoke(app, ["hint", "gae"])  # the fresh store takes writes
    assert result.exit_code == 0 and "Hint 1/" in result.output, result.output
    assert [e.kind for e in Store().events()] == ["hint"]
    assert (tmp_path / "gae.py").read_bytes() == mine, "the learner's file was touched"


def test_an_unusable_store_is_reported_and_left_alone(kata_home, tmp_path, monkeypatch):
    """history.db is a directory (say, a botched sync): not corrupt, not ours to move; history is off."""
    monkeypatch.chdir(tmp_path)
    (kata_home / "history.db").mkdir(parents=True)
    runner = CliRunner()
    for args in (["list"], ["start", "gae"], ["hint", "gae"], ["stats"], ["next"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output)
        assert "history store" in result.stderr, args
    assert (tmp_path / "gae.py").exists()
    assert (kata_home / "history.db").is_dir() and not list(kata_home.glob("history.db.corrupt-*"))


def test_an_unwritable_home_is_reported_once_and_commands_work(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where KATA_HOME's parent should be")
    monkeypatch.setenv("KATA_HOME", str(blocker / "kata"))
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    result = runner.invoke(app, ["start", "gae"])
    assert result.exit_code == 0, result.output
    assert result.stderr.count("kata: warning: cannot create or open the history store") == 1, result.stderr
    assert "Not a directory" in result.stderr and "progress is not being saved" in result.stderr
    assert (tmp_path / "gae.py").exists()
    assert runner.invoke(app, ["list"]).exit_code == 0


def test_a_kata_home_that_is_a_file_is_named_as_such(tmp_path, monkeypatch):
    blocker = tmp_path / "home-file"
    blocker.write_text("x")
    monkeypatch.setenv("KATA_HOME", str(blocker))
    result = CliRunner().invoke(app, ["list"])
    assert result.exit_code == 0 and "is a file, not a directory" in result.stderr, result.stderr


def test_events_during_an_interview_are_tagged_with_it(kata_home):
    store = Store()
    store.set(INTERVIEW, json.dumps({"id": "iv1", "kata": "gae", "started": 100.0, "deadline": 200.0}))
    store.record(Event("gae", "hint", 150.0))
    store.record(Event("gae", "reveal", 160.0))
    store.record(Event("attention", "hint", 150.0))  # another kata: not part of the interview
    store.record(Event("gae", "check", 250.0, verdict="pass"))  # after the deadline
    assert [(e.kind, e.session) for e in store.events()] == [
        ("hint", "iv1"), ("reveal", "iv1"), ("hint", None), ("check", None)]
    store.delete(INTERVIEW)
    assert store.interview() is None
