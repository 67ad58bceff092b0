"""Nothing the learner's code starts reaches kata's answers or kata's history (issue 31).

The audit hook (test_seal.py) lives in the learner's Python; a process it starts (`cat`, `os.system`,
a second Python) has none. Where Linux offers Landlock (checker.judge.fence) such a process cannot
read reference/, content/ (a drill with its bugs.toml undo is a right answer), checker/specs/, nor
write kata's home: those tests are skipped, saying so, where there is no Landlock. kata's home and
content/ are sealed in the learner's Python everywhere.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from checker.judge import fence
from checker.judge.results import Status
from checker.app.state import Event, Store
from tests.conftest import ROOT, run_check

LANDLOCK = fence.abi() >= 1
needs_landlock = pytest.mark.skipif(not LANDLOCK, reason="no Landlock here (not Linux 5.13+, or turned off): a process "
                                                         "the learner's code starts is not fenced, the audit hook alone holds")
REFERENCE = ROOT / "reference" / "gae.py"
ANSWERS = {"reference": REFERENCE, "spec": ROOT / "checker" / "specs" / "gae.py",
           "drill": next((ROOT / "content" / "gae" / "bugs").glob("*.py")), "undo": ROOT / "content" / "gae" / "bugs.toml"}
WRONG = "def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):\n    return rewards, rewards\n"
# Each way reads `path` in a process the learner's code starts, and leaves what it read in `got`.
READS = {
    "subprocess_cat": "r = subprocess.run(['cat', {path!r}], capture_output=True, text=True)\ngot = r.stdout + r.stderr\n",
    "os_system": ("out = os.path.join(tempfile.gettempdir(), 'out')\n"
                  "os.system('cat {path} > ' + out + ' 2>&1')\ngot = open(out).read()\n"),
    "child_python": ("r = subprocess.run([sys.executable, '-c', 'print(open(%r).read())' % {path!r}], capture_output=True,"
                     " text=True)\ngot = r.stdout + r.stderr\n"),
}


@pytest.fixture(autouse=True)
def kata_home(tmp_path_factory, monkeypatch):
    """kata's home beside the learner's folder, not in it (a folder that holds kata's home cannot be written)."""
    home = tmp_path_factory.mktemp("kata-home")
    monkeypatch.setenv("KATA_HOME", str(home))
    return home


def _learner(tmp_path: Path, body: str, name: str = "gae.py") -> Path:
    target = tmp_path / name
    target.write_text("# kata: gae\nimport os, sys, subprocess, tempfile\n" + body)
    return target


def _said(result) -> str:
    parts = [result.message, result.output]
    for case in result.cases:
        if case.error:
            parts += [case.error.type, case.error.message]
    return "\n".join(parts)


# ---------------------------------------------------------------- a process the learner's code starts


@needs_landlock
@pytest.mark.parametrize("answer", list(ANSWERS))
@pytest.mark.parametrize("way", list(READS))
def test_a_process_the_learners_code_starts_cannot_read_the_answers(tmp_path, way, answer):
    body = WRONG + READS[way].format(path=str(ANSWERS[answer])) + "print('GOT', len(got), got[:200])\n"
    if answer == "reference":  # what it read, it would use: the reference's own compute_gae passes
        body += "ns = {}\ntry:\n    exec(got, ns)\nexcept Exception:\n    pass\ncompute_gae = ns.get('compute_gae', compute_gae)\n"
    result = run_check(_learner(tmp_path, body), "gae", seed=4, timeout=60.0)
    assert result.status is not Status.PASS, _said(result)
    assert "Permission denied" in result.output, result.output
    telling = max(ANSWERS[answer].read_text(encoding="utf-8").splitlines(), key=len)  # a line of its own
    assert telling not in result.output, result.output


@needs_landlock
def test_the_warm_watcher_fences_the_learners_processes_too(tmp_path):
    """`kata watch` holds the reference in its own process (kata_warm_gae) and forks the learner's child from it."""
    from tests.app.test_watch import Keys, make_watcher

    path = _learner(tmp_path, WRONG)
    keys = Keys()
    watcher, _ = make_watcher(path, keys, seconds=30.0)
    try:
        for way in READS:
            path.write_text("# kata: gae\nimport os, sys, subprocess, tempfile\n" + WRONG
                            + READS[way].format(path=str(REFERENCE)) + "print('GOT', got)\n")
            result = watcher.recheck()
            assert result.status is not Status.PASS and "Permission denied" in result.output, (way, result.output)
    finally:
        watcher.files.close()
        keys.close()


def test_what_the_learners_code_may_do_still_works(tmp_path):
    """Temporary files (in a folder of the check's own where it has one), a second Python with torch, a helper module beside
    the file, files written beside it: none is touched by the fence."""
    (tmp_path / "helpers.py").write_text("FACTOR = 1.0\n")
    body = textwrap.dedent("""\
        import helpers
        made = tempfile.mkdtemp()
        with open(os.path.join(made, "x.txt"), "w") as f:
            f.write("x")
        print("TEMP", made)
        with open(os.path.join(os.path.dirname(__file__), "beside.txt"), "w") as f:
            f.write("y")
        done = subprocess.run([sys.executable, "-c", "import torch, numpy; print(torch.ones(2).sum().item())"],
                              capture_output=True, text=True)
        assert done.stdout.strip() == "2.0", done.stderr
        """) + _RIGHT
    result = run_check(_learner(tmp_path, body), "gae", seed=4, timeout=60.0)
    assert result.status is Status.PASS, _said(result)
    made = result.output.split("TEMP ", 1)[1].split()[0]
    if "kata-check-" in made:  # the check's own temporary folder (kata's home is in the system's here)
        assert not os.path.exists(made), "the learner's temporary folder outlived the check"
    assert (tmp_path / "beside.txt").read_text() == "y"


# ---------------------------------------------------------------- content/: a drill with its undo is an answer


@pytest.mark.parametrize("reach", [
    "got = open({drill!r}).read() + open({undo!r}).read()\n",
    "import importlib\ncontent = importlib.import_module('content')\n",
    "import importlib.resources\ngot = (importlib.resources.files('content') / 'gae' / 'bugs.toml').read_text()\n",
])
def test_the_learners_code_cannot_read_or_import_content(tmp_path, reach):
    body = reach.format(drill=str(ANSWERS["drill"]), undo=str(ANSWERS["undo"])) + WRONG
    result = run_check(_learner(tmp_path, body), "gae", seed=4, timeout=60.0)
    said = _said(result)
    assert result.status is Status.ERROR, said
    assert "tried to read kata's reference: content" in said or "tried to import kata's reference: content" in said, said


REBUILT = """
import tomllib as _toml
_undo = _toml.loads({read})
_source = open(__file__, encoding="utf-8").read()
for _key, _table in _undo.items():
    for _old, _new in _table.get("undo", []):
        if _old in _source:
            _source = _source.replace(_old, _new)
exec(compile(_source.split("# rebuilt below")[0], __file__, "exec"))
"""


@pytest.mark.parametrize("way", ["open", "subprocess_cat"])
def test_a_drill_rebuilt_from_content_is_not_fixed(tmp_path, way):
    """`kata bug softmax`, then a file that applies bugs.toml's undo to itself: in the learner's Python the
    read is refused; in a process it starts, Landlock refuses it (`kata check`: the preforked worker's child)."""
    if way == "subprocess_cat" and not LANDLOCK:
        pytest.skip("no Landlock here: a process the learner's code starts is not fenced")
    here = tmp_path / "work"
    here.mkdir()
    undo = ROOT / "content" / "softmax" / "bugs.toml"
    read = f"open({str(undo)!r}).read()" if way == "open" else (
        f"__import__('subprocess').run(['cat', {str(undo)!r}], capture_output=True, text=True).stdout")
    assert _cli("bug", "softmax", cwd=here).returncode == 0
    drill = here / "softmax_bug.py"
    written = drill.read_text(encoding="utf-8")
    # the rebuilding works where nothing is sealed: run here, it gives the fixed file's softmax
    ns: dict = {"__file__": str(drill)}
    drill.write_text(written + "\n# rebuilt below\n" + REBUILT.format(read=read), encoding="utf-8")
    exec(compile(drill.read_text(encoding="utf-8"), str(drill), "exec"), ns)
    import runpy

    import numpy as np

    softmax = runpy.run_path(str(ROOT / "reference" / "softmax.py"))["softmax"]  # not imported: nothing left in sys.modules

    x = np.random.default_rng(0).normal(size=(3, 5))
    np.testing.assert_allclose(ns["softmax"](x), softmax(x))  # a right answer, had it been let through
    done = _cli("check", "--json", "softmax_bug.py", cwd=here)
    data = json.loads(done.stdout)
    assert done.returncode == 1 and data["verdict"] != "pass", done.stdout
    assert not (data.get("drill") or {}).get("fixed"), done.stdout


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "KATA_LANG", "KATA_PREFORK")}
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), "--lang", "en", *args], cwd=cwd, capture_output=True,
                          text=True, env=env, stdin=subprocess.DEVNULL, timeout=300)


# ---------------------------------------------------------------- kata's home


def _history(home: Path) -> tuple[list, bytes]:
    store = Store(home)
    return store.events(), (home / "history.db").read_bytes()


def _seed_history(home: Path) -> None:
    Store(home).record(Event(kata="softmax", kind="check", at=time.time(), verdict="fail", passed=0, total=10))


def test_the_learners_code_has_another_kata_home_and_cannot_change_history_in_python(tmp_path, kata_home):
    _seed_history(kata_home)
    before = _history(kata_home)
    db = str(kata_home / "history.db")
    body = textwrap.dedent(f"""\
        import sqlite3, shutil
        print("HOME", os.environ.get("KATA_HOME"))
        for attempt in (
            lambda: sqlite3.connect({db!r}).execute("INSERT INTO events (kata, kind, at, verdict) VALUES ('gae', 'check', 1, 'pass')"),
            lambda: sqlite3.connect(":memory:").execute("ATTACH DATABASE {db} AS h"),
            lambda: open({db!r}, "ab").write(b"x"),
            lambda: os.remove({db!r}),
            lambda: os.rename({db!r}, {db!r} + ".gone"),
            lambda: shutil.rmtree({str(kata_home)!r}),
        ):
            try:
                attempt()
            except Exception as exc:
                print("REFUSED", type(exc).__name__)
        """) + _RIGHT
    result = run_check(_learner(tmp_path, body), "gae", seed=4, timeout=60.0)
    said = _said(result)
    assert result.status is Status.ERROR and "tried to reach kata's history" in said, said
    assert said.count("REFUSED") == 6, said
    home_seen = said.split("HOME ", 1)[1].split()[0]
    assert home_seen == os.path.join(os.devnull, "kata-home"), said
    assert _history(kata_home) == before


INSERT = "INSERT INTO events (kata, kind, at, verdict) VALUES ('gae', 'check', 1, 'pass')"
CHANGES = {  # each one changes the history where nothing fences it (test_each_change_changes_history_unfenced)
    "child_python": "subprocess.run([sys.executable, '-c', {python!r}])",
    "os_system": "os.system('echo x >> {db}; rm -f {db}; mv {db} {db}.gone')",
    "kata_itself": "subprocess.run(['sh', '-c', 'cd $(mktemp -d) && KATA_HOME={home} {exe} {cli} start gae'])",
}


def _change(way: str, home: Path) -> str:
    db = str(home / "history.db")
    python = f"import sqlite3; c = sqlite3.connect({db!r}); c.execute({INSERT!r}); c.commit()"
    return CHANGES[way].format(db=db, python=python, home=str(home), exe=sys.executable, cli=str(ROOT / "cli.py"))


@pytest.mark.parametrize("way", list(CHANGES))
def test_each_change_changes_history_unfenced(tmp_path, kata_home, way):
    _seed_history(kata_home)
    before, names = _history(kata_home), sorted(os.listdir(kata_home))
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", "import os, sys, subprocess\n" + _change(way, kata_home)], env=env, timeout=120)
    assert not (kata_home / "history.db").exists() or _history(kata_home) != before or sorted(os.listdir(kata_home)) != names


@needs_landlock
@pytest.mark.parametrize("way", list(CHANGES))
def test_a_process_the_learners_code_starts_cannot_change_history(tmp_path, kata_home, way):
    _seed_history(kata_home)
    before, names = _history(kata_home), sorted(os.listdir(kata_home))
    run_check(_learner(tmp_path, _change(way, kata_home) + "\n" + WRONG), "gae", seed=4, timeout=60.0)
    assert _history(kata_home) == before and sorted(os.listdir(kata_home)) == names


# ---------------------------------------------------------------- the rules themselves (no Landlock needed)


def test_no_rule_grants_what_holds_answers_or_writes_kata_home(tmp_path, kata_home):
    learner = _learner(tmp_path, WRONG)
    scratch = fence.scratch()
    fence.prepare(scratch)
    try:
        rules = fence.plan(str(learner), str(kata_home))
    finally:
        fence.remove(scratch)
    hidden = [str(ROOT / p) for p in ("reference", "content", "checker/specs", "tests", ".git", "build")]
    for path, rights, _ in rules:
        if rights & (fence.READ_FILE | fence.EXECUTE):
            assert not any(path == h or path.startswith(h + os.sep) or h.startswith(path + os.sep) for h in hidden), path
        if rights & fence.WRITE:
            home = os.path.realpath(kata_home)
            assert not (home == path or home.startswith(path + os.sep) or path.startswith(home + os.sep)), path
            assert not str(ROOT).startswith(path + os.sep) and not path.startswith(str(ROOT) + os.sep), path
    granted = {path for path, _, _ in rules}
    assert str(learner.resolve()) in granted and str(ROOT / "checker" / "judge") in granted


_RIGHT = textwrap.dedent("""\
    def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
        import torch
        T = rewards.shape[0]
        nd = 1.0 - dones.to(rewards.dtype)
        adv = torch.zeros_like(rewards)
        gae, nxt = torch.zeros_like(rewards[0]), torch.zeros_like(rewards[0])
        for t in reversed(range(T)):
            delta = rewards[t] + gamma * nxt * nd[t] - values[t]
            gae = delta + gamma * lam * nd[t] * gae
            adv[t], nxt = gae, values[t]
        return (adv - adv.mean()) / (adv.std() + 1e-8), adv + values
    """)
