"""Progress, spaced repetition, stats, interviews' bookkeeping, reset and reveal --diff/--yes.

The logic is tested on hand-written histories with a fixed `now`; the commands with CliRunner.
"""
from __future__ import annotations

import datetime as dt
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from checker.text import catalog
from checker.app import commands, practice
from checker.errors import KataError
from checker.app.state import Event, Store
from cli import app
from tests.conftest import ROOT

DAY = practice.DAY
NOW = 1_700_000_000.0
runner = CliRunner()


def code(result) -> int:
    """The exit code `kata` gives: main() turns a KataError into its exit code, CliRunner does not."""
    return result.exception.exit_code if isinstance(result.exception, KataError) else result.exit_code


def said(result) -> str:
    return result.output + (result.exception.message if isinstance(result.exception, KataError) else "")


def ev(kata, kind, at, verdict=None, **kw):
    return Event(kata, kind, at, verdict=verdict, **kw)


# ---------------------------------------------------------------- progress


def test_best_time_is_start_to_first_pass_and_reveals_do_not_count():
    events = [
        ev("gae", "start", 0.0), ev("gae", "check", 100.0, "fail"), ev("gae", "check", 250.0, "pass"),
        ev("gae", "check", 260.0, "pass"),  # a later pass in the same attempt changes nothing
        ev("gae", "reset", 1000.0), ev("gae", "check", 1100.0, "pass"),  # a faster redo: 100 s
        ev("gae", "reset", 2000.0), ev("gae", "reveal", 2005.0), ev("gae", "check", 2010.0, "pass"),  # copied
    ]
    p = practice.progress("gae", events)
    assert p.best_seconds == 100.0
    assert p.clean_passes == 2 and p.mastered
    assert (p.checks, p.fails, p.status) == (5, 1, "mastered")
    assert p.last_at == 2010.0 and p.last_pass_at == 2010.0


def test_a_check_of_the_untouched_stub_is_no_attempt_and_no_failure():
    """`kata check gae` right after `kata start gae` (the README's first run) says "not implemented yet": it is
    recorded as kind "stub", which `kata stats` ("fail most"), `kata next` and the status all pass over."""
    events = [ev("gae", "start", 0.0), ev("gae", "stub", 10.0, "error"), ev("gae", "check", 100.0, "fail"),
              ev("gae", "check", 200.0, "pass")]
    p = practice.progress("gae", events)
    assert (p.checks, p.fails, p.status) == (2, 1, "mastered"), p  # the stub's check is neither
    stub_only = [ev("rope", "start", 0.0), ev("rope", "stub", 10.0, "error"), ev("rope", "stub", 20.0, "error")]
    p = practice.progress("rope", stub_only)
    assert (p.checks, p.fails, p.last_verdict) == (0, 0, None) and practice.failing_most(stub_only) == []
    why = next(s.why for s in practice.suggest(stub_only, NOW) if s.kata.id == "rope")
    assert "failed" not in why and "started it" in why, why
    assert practice.progress("rope", [ev("rope", "stub", 10.0, "error")]).status == "new"  # no start: nothing begun


def test_checking_the_stub_records_a_stub_and_a_written_file_a_check(kata_home, tmp_path):
    from checker.app import checking

    kata = catalog.get("softmax")
    store = Store()
    path = tmp_path / kata.filename
    path.write_text(kata.stub())
    stub = checking.check(kata, path, store, device="cpu", seed=3)
    assert not stub.result.passed and checking.still_the_stub(stub.result, kata, path)
    path.write_text(kata.stub().replace(f'raise NotImplementedError("write {kata.entry}")', "return x"))
    wrong = checking.check(kata, path, store, device="cpu", seed=3)
    assert not wrong.result.passed and not checking.still_the_stub(wrong.result, kata, path)
    assert [e.kind for e in store.events("softmax")] == ["stub", "check"]
    assert [(p.kata, p.fails, p.checks) for p in practice.failing_most(store.events())] == [("softmax", 1, 1)]


def test_a_hint_makes_a_pass_not_clean_and_a_pass_without_start_has_no_time():
    hinted = [ev("mha", "start", 0.0), ev("mha", "hint", 10.0), ev("mha", "check", 60.0, "pass")]
    p = practice.progress("mha", hinted)
    assert p.best_seconds == 60.0 and p.clean_passes == 0 and not p.mastered
    bare = practice.progress("mha", [ev("mha", "check", 5.0, "pass")])
    assert bare.best_seconds is None and bare.status == "mastered"  # written without any help: clean
    helped = practice.progress("mha", [ev("mha", "hint", 1.0), ev("mha", "check", 5.0, "pass")])
    assert helped.status == "passed" and not helped.mastered


def test_an_interview_opens_an_attempt_and_its_closing_event_does_not():
    events = [ev("gae", "interview", 0.0, session="a"), ev("gae", "check", 300.0, "pass", session="a"),
              ev("gae", "interview", 300.0, "pass", seconds=300.0, session="a")]
    p = practice.progress("gae", events)
    assert p.best_seconds == 300.0 and p.mastered and p.opened_at is None


# ---------------------------------------------------------------- what next


def _history():
    return [
        # passed cleanly 20 days ago, once: due (reviews every day after one clean pass)
        ev("softmax", "start", NOW - 20 * DAY - 60), ev("softmax", "check", NOW - 20 * DAY, "pass"),
        # passed cleanly twice, yesterday: not due (3 days)
        ev("causal-mask", "start", NOW - 5 * DAY), ev("causal-mask", "check", NOW - 5 * DAY + 60, "pass"),
        ev("causal-mask", "reset", NOW - DAY), ev("causal-mask", "check", NOW - DAY + 60, "pass"),
        # failing
        ev("gae", "start", NOW - 3 * DAY), ev("gae", "check", NOW - 3 * DAY + 60, "fail"),
        # revealed, never passed
        ev("mha", "start", NOW - 10 * DAY - 60), ev("mha", "reveal", NOW - 10 * DAY),
    ]


def test_next_puts_revealed_then_failing_then_due_then_new_then_not_due():
    ranked = practice.suggest(_history(), NOW)
    order = [s.kata.id for s in ranked]
    assert order[:3] == ["mha", "gae", "softmax"]
    assert order[-1] == "causal-mask"
    new = [k.id for k in catalog.KATAS if k.id not in {"mha", "gae", "softmax", "causal-mask"}]
    assert sorted(order[3:-1]) == sorted(new)
    assert [s.kata.difficulty for s in ranked[3:-1]] == sorted((s.kata.difficulty for s in ranked[3:-1]),
                                                               key=practice.DIFFICULTY_ORDER.get)
    why = {s.kata.id: s.why for s in ranked}
    assert "looked at the reference 10 days ago" in why["mha"]
    assert "last check failed" in why["gae"] and "1 of 1 checks failed" in why["gae"]
    assert why["softmax"] == "last passed 20 days ago; due for review (every day)"
    assert "next review in" in why["causal-mask"]
    assert why["attention"] == "not practised yet"


def test_a_slow_pass_comes_back_sooner():
    def passed(seconds):
        return [ev("gae", "start", NOW - 2.5 * DAY - seconds), ev("gae", "check", NOW - 2.5 * DAY, "pass"),
                ev("gae", "reset", NOW - 2 * DAY - seconds), ev("gae", "check", NOW - 2 * DAY, "pass")]

    quick = practice.suggest(passed(5 * 60), NOW)
    slow = practice.suggest(passed(45 * 60), NOW)
    tier = {s.kata.id: s for s in quick}["gae"]
    assert tier.tier == 4, tier  # two clean passes: next review after 3 days
    slow_gae = {s.kata.id: s for s in slow}["gae"]
    assert slow_gae.tier == 2 and "slow: your best time is 45m00s" in slow_gae.why


def test_next_by_topic_and_the_command_says_why(kata_home):
    store = Store()
    for e in _history():
        store.record(e)
    assert {s.kata.topic for s in practice.suggest(store.events(), NOW, topic="rl")} == {"rl"}
    result = runner.invoke(app, ["next"])
    assert result.exit_code == 0, result.output
    assert re.search(r"Next: mha .*looked at the reference", result.output.replace("\n", " ")), result.output
    assert "kata reset mha" in result.output


# ---------------------------------------------------------------- stats


def test_streak_counts_days_in_a_row_with_a_check():
    today = dt.datetime.fromtimestamp(NOW).replace(hour=12).timestamp()
    checks = [ev("gae", "check", today - d * DAY, "fail") for d in (0, 1, 2, 4)]
    assert practice.streak(checks, today) == 3
    assert practice.streak(checks[1:], today) == 2  # nothing today yet: the streak is still alive
    assert practice.streak(checks[2:], today) == 0
    assert practice.streak([ev("gae", "hint", today)], today) == 0


def test_stats_per_topic_and_the_katas_that_fail_most(kata_home):
    store = Store()
    events = [ev("gae", "check", NOW, "fail")] * 3 + [ev("gae", "check", NOW, "pass")] \
        + [ev("attention", "check", NOW, "error")] * 5 + [ev("softmax", "check", NOW, "pass"), ev("mha", "reveal", NOW)]
    for e in events:
        store.record(e)
    rows = {r.topic: r for r in practice.topic_stats(store.events())}
    assert (rows["rl"].passed, rows["rl"].checks, rows["rl"].katas) == (1, 4, 5)
    assert (rows["helpers"].passed, rows["attention"].revealed) == (1, 1)
    assert [p.kata for p in practice.failing_most(store.events())] == ["attention", "gae"]
    for e in [ev("gae", "interview", NOW, "pass", seconds=300.0), ev("mha", "interview", NOW, "timeout", seconds=1800.0),
              ev("gae", "interview", NOW, "pass", seconds=200.0)]:
        store.record(e)
    result = runner.invoke(app, ["stats"])
    assert result.exit_code == 0, result.output
    assert "interviews: 2 passed, 1 out of time, 0 stopped; fastest: gae in 3m20s" in result.output
    assert "attention: 5 of 5 checks failed" in result.output
    assert "gae: 3 of 4 checks failed (passed since)" in result.output
    assert "streak:" in result.output


# ---------------------------------------------------------------- list


def test_list_shows_best_time_and_last_practised(kata_home, monkeypatch):
    store = Store()
    now = __import__("time").time()
    for e in [ev("gae", "start", now - 3 * 3600 - 250), ev("gae", "check", now - 3 * 3600, "pass"),
              ev("softmax", "start", now - 2 * DAY)]:
        store.record(e)
    import cli

    monkeypatch.setattr(cli.console, "_width", 200)  # a screen wide enough for every column
    result = runner.invoke(app, ["list"])
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line for line in result.output.splitlines() if line.strip()}
    assert "best" in result.output and "last practised" in result.output
    assert "mastered" in rows["gae"] and "4m10s" in rows["gae"] and "3 h ago" in rows["gae"], rows["gae"]
    assert "attempted" in rows["softmax"] and "2 days ago" in rows["softmax"]
    assert "never" in rows["attention"] and "—" in rows["attention"]


# ---------------------------------------------------------------- interviews


def test_interview_picks_a_kata_not_mastered_in_the_topic():
    mastered = [ev(k, kind, NOW - 3 * DAY + i) for k in ("grpo-advantage", "mc-advantage")
                for i, kind in enumerate(("start",))] + \
               [ev(k, "check", NOW - 3 * DAY + 60, "pass") for k in ("grpo-advantage", "mc-advantage")]
    kata, why = practice.pick_for_interview(mastered, "rl", NOW)
    assert kata.topic == "rl" and kata.id not in ("grpo-advantage", "mc-advantage")
    with pytest.raises(KataError, match="No topic named 'vision'"):
        practice.pick_for_interview([], "vision", NOW)
    everything = [e for k in catalog.KATAS if k.topic == "helpers"
                  for e in (ev(k.id, "start", NOW - 100), ev(k.id, "check", NOW - 50, "pass"))]
    kata, why = practice.pick_for_interview(everything, "helpers", NOW)
    assert kata.id == "softmax" and "mastered every kata in helpers" in why


def test_an_interview_writes_a_fresh_stub_keeps_the_old_file_and_records_its_outcome(kata_home, tmp_path):
    store = Store()
    kata = catalog.get("gae")
    (tmp_path / "gae.py").write_text("# kata: gae\nmy old attempt\n")
    running = commands.begin_interview(kata, store, tmp_path, 20, now=NOW)
    assert (tmp_path / "gae.py").read_text() == kata.stub()
    assert (tmp_path / "gae.py.bak-1").read_text() == "# kata: gae\nmy old attempt\n"
    assert store.interview()["id"] == running["id"] and running["deadline"] == NOW + 20 * 60
    store.record(Event("gae", "hint", NOW + 30))
    store.record(Event("gae", "check", NOW + 400, verdict="pass"))
    took = commands.end_interview(store, running, "pass", now=NOW + 400)
    assert took == 400 and store.interview() is None
    assert practice.interview_summary(store.events(), running["id"]) == {"check": 1, "hint": 1, "reveal": 0}
    closing = store.events("gae", "interview")[-1]
    assert (closing.verdict, closing.seconds, closing.session) == ("pass", 400, running["id"])
    assert practice.progress("gae", store.events()).best_seconds == 400
    with pytest.raises(KataError, match="positive"):
        commands.begin_interview(kata, store, tmp_path, 0)


# ---------------------------------------------------------------- reset


def test_reset_restores_the_stub_keeps_backups_and_restarts_the_hint_ladder(kata_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    stub = catalog.get("gae").stub()
    assert runner.invoke(app, ["start", "gae"]).exit_code == 0
    assert "Hint 1/" in runner.invoke(app, ["hint", "gae"]).output
    assert "Hint 2/" in runner.invoke(app, ["hint", "gae"]).output
    for attempt in ("first try\n", "second try\n"):
        (tmp_path / "gae.py").write_text(attempt)
        result = runner.invoke(app, ["reset", "gae"])
        assert result.exit_code == 0, result.output
        assert (tmp_path / "gae.py").read_text() == stub
    assert (tmp_path / "gae.py.bak-1").read_text() == "first try\n"
    assert (tmp_path / "gae.py.bak-2").read_text() == "second try\n"
    assert "Hint 1/" in runner.invoke(app, ["hint", "gae"]).output
    result = runner.invoke(app, ["reset", "gae"])  # the stub itself needs no backup
    assert result.exit_code == 0 and not (tmp_path / "gae.py.bak-3").exists()
    assert [e.kind for e in Store().events("gae")].count("reset") == 3


def test_reset_all_restores_every_kata_file_found_and_finds_files_started_elsewhere(kata_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["start", "softmax", "--dir", "elsewhere"]).exit_code == 0
    assert runner.invoke(app, ["start", "gae"]).exit_code == 0
    (tmp_path / "elsewhere" / "softmax.py").write_text("mine\n")
    (tmp_path / "gae.py").write_text("mine too\n")
    result = runner.invoke(app, ["reset", "--all"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "elsewhere" / "softmax.py.bak-1").read_text() == "mine\n"
    assert (tmp_path / "gae.py.bak-1").read_text() == "mine too\n"
    assert not (tmp_path / "attention.py").exists()  # katas never started are not created
    assert code(runner.invoke(app, ["reset"])) == 2


# ---------------------------------------------------------------- reveal


def test_reveal_of_a_kata_never_passed_needs_yes_when_stdin_is_not_a_terminal(kata_home):
    result = runner.invoke(app, ["reveal", "gae"])
    assert code(result) == 2
    assert "have not passed gae" in said(result) and "--yes" in said(result)
    assert Store().events() == []  # nothing revealed, nothing recorded
    result = runner.invoke(app, ["reveal", "gae", "--yes"])
    assert result.exit_code == 0 and "def compute_gae" in result.output
    assert practice.progress("gae", Store().events()).status == "revealed"


def test_reveal_after_a_pass_asks_nothing(kata_home):
    Store().record(Event("gae", "check", NOW, verdict="pass"))
    result = runner.invoke(app, ["reveal", "gae"])
    assert result.exit_code == 0 and "def compute_gae" in result.output


def test_reveal_diff_compares_the_file_that_passed_as_a_unified_diff(kata_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["reveal", "gae", "--diff", "--yes"])
    assert code(result) == 2 and "No file of yours for gae" in said(result)
    assert runner.invoke(app, ["start", "gae"]).exit_code == 0
    passing = tmp_path / "mine.py"
    passing.write_text("# kata: gae\n" + catalog.get("gae").reference_path.read_text().replace(
        "    T = rewards.shape[0]", "    T = len(rewards)  # MY_CHANGE"))
    Store().record(Event("gae", "check", NOW, verdict="pass", file=str(passing)))
    result = runner.invoke(app, ["reveal", "gae", "--diff", "--yes"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("--- yours: mine.py") and lines[1].startswith("+++ reference: gae.py")
    assert "-    T = len(rewards)" in lines and "+    T = rewards.shape[0]" in lines  # marks, not colour alone
    assert not any("MY_CHANGE" in line or "Schulman" in line for line in lines)  # comments and docstrings left out
    explicit = runner.invoke(app, ["reveal", "gae", "--diff", "--file", "gae.py", "--yes"])
    assert "--- yours: gae.py" in explicit.output  # the untouched stub, when asked for


def test_reveal_never_cuts_the_code_at_the_screen_edge(kata_home):
    Store().record(Event("grpo-loss", "check", NOW, verdict="pass"))
    source = catalog.get("grpo-loss").reference_path.read_text().splitlines()
    result = subprocess.run([sys.executable, str(ROOT / "cli.py"), "reveal", "grpo-loss"], capture_output=True, text=True,
                            env={**__import__("os").environ, "COLUMNS": "60"}, timeout=60)
    rows: list[str] = []
    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(" 1 │ "))
    assert lines[0].startswith("grpo-loss — ") and "the reference" in " ".join(" ".join(lines[:start]).split())  # a title, then the code
    code = lines[start:]
    for line in code:
        assert len(line) <= 60, line
        number, bar, text = line.partition(" │ ") if " │ " in line[:6] else line.partition(" ┆ ")
        if bar == " │ ":
            rows.append(text)
        else:  # the continuation of a line too long for the screen
            assert bar == " ┆ " and not number.strip(), line
            rows[-1] += text
    assert rows == source


def test_reveal_diff_folds_long_lines_behind_a_mark_in_the_sign_column(kata_home, tmp_path):
    """A wrapped diff line once continued at column 0, where it read as a context line of its own."""
    mine = tmp_path / "mine.py"
    mine.write_text("# kata: gae\nimport torch\n\n\ndef compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):\n"
                    "    raise NotImplementedError('a line long enough to need folding at forty columns, surely')\n")
    result = subprocess.run([sys.executable, str(ROOT / "cli.py"), "reveal", "gae", "--diff", "--file", str(mine), "--yes"],
                            capture_output=True, text=True, env={**__import__("os").environ, "COLUMNS": "40"}, timeout=60)
    assert result.returncode == 0, result.stderr
    rows: list[str] = []
    for line in result.stdout.splitlines():
        assert len(line) <= 40, line
        if line.startswith("┆"):
            rows[-1] += line[1:]
        else:
            assert line[:1] in "-+@ ", line
            rows.append(line)
    assert "-    raise NotImplementedError('a line long enough to need folding at forty columns, surely')" in rows
    assert any(line.startswith("┆") for line in result.stdout.splitlines())


# ---------------------------------------------------------------- import weight


@pytest.mark.parametrize("args", [["list"], ["stats"], ["next"], ["reset", "gae"], ["reveal", "gae", "--yes"]])
def test_practice_commands_do_not_import_torch_or_numpy(kata_home, tmp_path, args):
    probe = ("import atexit, sys\n"
             "atexit.register(lambda: print('HEAVY' if {'torch', 'numpy'} & set(sys.modules) else 'LIGHT', file=sys.stderr))\n"
             f"sys.path.insert(0, {str(ROOT)!r}); import cli; sys.argv = ['kata'] + {args!r}; cli.main()")
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().endswith("LIGHT"), done.stderr
