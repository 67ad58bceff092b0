"""`kata watch` and `kata interview`: keys, saves (events and polling), the warm checker's survival.

The loop is driven in-process through `Watcher.step()` with keys fed through a pipe; the real
commands run in a pseudo-terminal, as a learner runs them.
"""
from __future__ import annotations

import io
import os
import pty
import re
import select
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from rich.console import Console

from checker.text import catalog
from checker.app.state import Store
from checker.app.watch import FileWatch, Interview, KeyReader, Watcher, signature
from tests.conftest import ROOT

GAE = catalog.get("gae")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")


def right(path: Path) -> None:
    path.write_text("# kata: gae\n" + GAE.reference_path.read_text())


def wrong(path: Path) -> None:
    """The reference with the classic slip: the done mask is dropped from the recursion."""
    source = GAE.reference_path.read_text()
    broken = re.sub(r"\(1(\.0)? - dones?\[t\]\)|not_done\[t\]|nonterminal\[t\]", "1.0", source)
    assert broken != source, "the reference changed shape; update this test's slip"
    path.write_text("# kata: gae\n" + broken)


def body(path: Path, code: str) -> None:
    path.write_text(f"# kata: gae\ndef compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):\n{code}\n")


class Keys:
    """A pipe standing in for the keyboard."""

    def __init__(self):
        self.read_fd, self.write_fd = os.pipe()
        self.reader = KeyReader(self.read_fd)

    def press(self, keys: str) -> None:
        os.write(self.write_fd, keys.encode())

    def close(self) -> None:
        for fd in (self.read_fd, self.write_fd):
            try:
                os.close(fd)
            except OSError:
                pass


@pytest.fixture
def keys():
    k = Keys()
    yield k
    k.close()


def make_watcher(path: Path, keys: Keys, **kw) -> tuple[Watcher, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=False)
    kw.setdefault("seed", 7)
    w = Watcher(GAE, path, Store(), console, keys.reader, device="cpu", seconds=kw.pop("seconds", 20.0), **kw)
    return w, out


def until(watcher: Watcher, done, limit: float = 30.0) -> str | None:
    """Turn the loop until `done()` or an outcome; the outcome, if any."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        outcome = watcher.step(timeout=0.05)
        if outcome is not None or done():
            return outcome
    raise AssertionError(f"nothing happened in {limit} s")


# ---------------------------------------------------------------- keys


def test_key_reader_reads_single_keys_from_a_pipe_and_goes_quiet_at_eof(keys):
    keys.press("h R\nq")
    assert keys.reader.read() == ["h", "r", "q"]
    os.close(keys.write_fd)
    assert keys.reader.read() == [] and keys.reader.closed
    assert KeyReader(None).closed and KeyReader(None).read() == []


def test_key_reader_puts_a_terminal_in_cbreak_mode_and_restores_it():
    master, slave = pty.openpty()
    try:
        before = termios.tcgetattr(slave)
        assert before[3] & termios.ICANON
        with KeyReader(slave) as reader:
            during = termios.tcgetattr(slave)
            assert not during[3] & termios.ICANON and not during[3] & termios.ECHO
            assert during[3] & termios.ISIG, "Ctrl-C must still interrupt"
            os.write(master, b"h")
            assert reader.read() == ["h"]
        assert termios.tcgetattr(slave) == before
    finally:
        os.close(master)
        os.close(slave)


# ---------------------------------------------------------------- saves


def test_polling_sees_writes_and_atomic_renames_and_nothing_else(tmp_path):
    path = tmp_path / "gae.py"
    path.write_text("one")
    files = FileWatch(path, events=False)
    try:
        assert files.mode == "polling"
        files.seen = signature(path)
        assert files.changed() is None
        os.utime(path, ns=(1, 1))
        assert files.changed() is not None
        files.seen = signature(path)
        tmp = tmp_path / ".gae.py.swp"
        tmp.write_text("two")
        os.replace(tmp, path)  # how many editors save
        assert files.changed() is not None
        files.seen = signature(path)
        path.unlink()
        assert files.changed() is None  # mid-save: no file, nothing to check yet
    finally:
        files.close()


def test_file_events_wake_the_loop(tmp_path):
    path = tmp_path / "gae.py"
    path.write_text("one")
    files = FileWatch(path, events=True)
    try:
        assert files.mode == "events"
        time.sleep(0.3)  # the watcher thread is up
        (tmp_path / "other.py").write_text("not ours")
        path.write_text("two")
        ready, _, _ = select.select([files.wake_fd], [], [], 5)
        assert ready, "no file event within 5 s"
    finally:
        files.close()


def test_a_failing_event_source_falls_back_to_polling(tmp_path, monkeypatch, keys):
    import watchfiles

    def broken(*args, **kwargs):
        raise OSError(28, "inotify watch limit reached")
        yield  # pragma: no cover

    monkeypatch.setattr(watchfiles, "watch", broken)
    path = tmp_path / "gae.py"
    wrong(path)
    watcher, out = make_watcher(path, keys)
    try:
        watcher.recheck()
        assert watcher.result.status.value == "fail"
        deadline = time.monotonic() + 5
        while watcher.files.mode != "polling" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert watcher.files.mode == "polling" and "inotify watch limit" in watcher.files.problem
        right(path)
        until(watcher, lambda: watcher.checks == 2)
        assert watcher.result.passed
        assert "polling" in out.getvalue()
    finally:
        watcher.files.close()


# ---------------------------------------------------------------- the loop


def test_watch_rechecks_on_save_and_answers_h_r_q(tmp_path, keys):
    path = tmp_path / "gae.py"
    wrong(path)
    watcher, out = make_watcher(path, keys)
    try:
        watcher.recheck()
        assert watcher.result.status.value == "fail" and watcher.checks == 1
        right(path)
        until(watcher, lambda: watcher.checks == 2)
        assert watcher.result.passed and watcher.seed == 7  # saves keep the session's seed

        keys.press("h")
        until(watcher, lambda: len(watcher.hints) == 1)
        assert f"Hint 1/{len(GAE.hints)}: {GAE.hints[0]}" in out.getvalue().replace("\n", " ") or "Hint 1/" in out.getvalue()

        keys.press("r")
        until(watcher, lambda: watcher.checks == 3)
        assert watcher.result.passed

        keys.press("q")
        assert until(watcher, lambda: False) == "quit"
    finally:
        watcher.files.close()
    events = Store().events("gae")
    checks = [e for e in events if e.kind == "check"]
    assert [e.verdict for e in checks] == ["fail", "pass", "pass"]
    assert len({e.detail.split("; watch ")[1] for e in checks}) == 1  # one watch session
    from checker.app import practice

    assert practice.progress("gae", events).checks == 1  # which `kata stats` counts once
    assert [e.kind for e in events].count("hint") == 1
    assert "PASS" in out.getvalue() and "FAIL" in out.getvalue()


def test_a_hint_is_cleared_by_the_next_verdict(tmp_path, keys):
    path = tmp_path / "gae.py"
    wrong(path)
    watcher, out = make_watcher(path, keys)
    try:
        watcher.recheck()
        keys.press("h")
        until(watcher, lambda: len(watcher.hints) == 1)
        assert "Hint 1/" in out.getvalue().split("───")[-1]  # under the FAIL
        right(path)
        until(watcher, lambda: watcher.checks == 2)
        assert watcher.result.passed and watcher.hints == []
        assert "PASS" in out.getvalue().split("───")[-1] and "Hint 1/" not in out.getvalue().split("───")[-1]
    finally:
        watcher.files.close()


@pytest.mark.parametrize("code, says", [
    ("    while True:\n        pass", "Timed out"),
    ("    import os\n    os._exit(3)", "ended the process"),
    ("    import os, signal\n    os.kill(os.getpid(), signal.SIGKILL)", "ended the process"),
])
def test_a_hang_or_a_crash_in_the_learners_code_does_not_end_the_watcher(tmp_path, keys, code, says):
    path = tmp_path / "gae.py"
    body(path, code)
    watcher, out = make_watcher(path, keys, seconds=1.5)
    try:
        result = watcher.recheck()
        assert result.status.value == "error" and says in result.message, result.message
        watcher.seconds = 60.0  # a loaded machine must not make the right answer time out
        right(path)  # the next save re-checks, in the same warm process
        until(watcher, lambda: watcher.checks == 2)
        assert watcher.result.passed
    finally:
        watcher.files.close()


def test_the_checkers_own_failure_is_shown_and_watching_goes_on(tmp_path, keys, monkeypatch):
    path = tmp_path / "gae.py"
    right(path)
    watcher, out = make_watcher(path, keys)
    try:
        from checker import judge

        monkeypatch.setattr(judge, "check", lambda request: 1 / 0)  # what checking reaches the judge through
        assert watcher.recheck() is None
        assert "kata's checker failed: ZeroDivisionError" in out.getvalue()
        monkeypatch.undo()
        path.write_text(path.read_text() + "\n")
        until(watcher, lambda: watcher.checks == 1)
        assert watcher.result.passed
    finally:
        watcher.files.close()


def test_an_interview_ends_at_the_first_pass_or_at_the_deadline(tmp_path, keys):
    path = tmp_path / "gae.py"
    path.write_text(GAE.stub())
    now = time.time()
    watcher, out = make_watcher(path, keys, interview=Interview("iv", now + 60, now))
    watcher.files.seen = signature(path)
    try:
        right(path)
        assert until(watcher, lambda: False) == "pass"
        assert "left" in out.getvalue()  # the countdown
    finally:
        watcher.files.close()
    late, _ = make_watcher(path, keys, interview=Interview("iv2", time.time() + 0.3, time.time()))
    late.files.seen = signature(path)
    try:
        assert until(late, lambda: False, limit=5) == "timeout"
        assert late.checks == 0
    finally:
        late.files.close()


@pytest.mark.parametrize("kata_id", ["causal-mask", "attention"])
def test_warm_up_runs_the_reference_in_process_and_leaves_no_trace(kata_id):
    import torch

    from checker.judge import warm_up

    kata = catalog.get(kata_id)
    path, modules, rng = list(sys.path), set(sys.modules) | {kata.spec_module}, torch.get_rng_state()
    warm_up(kata, "cpu")
    assert sys.path == path
    assert not {m for m in set(sys.modules) - modules if "kata" in m or m in ("reference", kata.module)}
    assert torch.equal(torch.get_rng_state(), rng)
    assert torch.get_default_device() == torch.device("cpu")


def test_a_meta_case_needs_no_meta_kernels_warm_or_cold():
    """device='meta' is simulated (checker/judge/devices.py): torch never loads torch._dynamo for it,
    so neither a cold check nor a warm watcher pays the second that real meta ops cost in torch 2.13."""
    probe = ("import sys, importlib, torch\n"
             f"sys.path.insert(0, {str(ROOT)!r})\n"
             "from checker.text import catalog\nfrom checker.judge import spec\n"
             "kata = catalog.get('causal-mask'); module = importlib.import_module(kata.spec_module)\n"
             "ref = importlib.util.spec_from_file_location('r', kata.reference_path); m = importlib.util.module_from_spec(ref)\n"
             "ref.loader.exec_module(m)\n"
             "case = spec.build_cases(module, 1, 'meta')[0]\n"
             "out = spec.call(kata, m.create_batch_causal_mask, case.inputs, torch.device('cpu')).value\n"
             "print(out.simulated_device, tuple(out.shape), out.dtype, 'torch._dynamo' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.split() == ["meta", "(2,", "3,", "5,", "5)", "torch.bool", "False"], done.stdout


# ---------------------------------------------------------------- the commands, in a terminal


class Terminal:
    """A `kata` command in a pseudo-terminal: type keys, wait for text on the screen."""

    def __init__(self, args: list[str], cwd: Path, env: dict[str, str]):
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen([sys.executable, "-c", "import cli; cli.main()", *args], cwd=cwd,
                                     stdin=slave, stdout=slave, stderr=slave, close_fds=True,
                                     env=env | {"PYTHONPATH": str(ROOT), "COLUMNS": "100", "TERM": "xterm"})
        os.close(slave)
        self.screen = ""

    def expect(self, pattern: str, limit: float = 60.0) -> str:
        deadline = time.monotonic() + limit
        while not re.search(pattern, ANSI.sub("", self.screen)):
            left = deadline - time.monotonic()
            if left <= 0 or not self._read(min(left, 0.5)) and self.proc.poll() is not None:
                raise AssertionError(f"no {pattern!r} on screen:\n{ANSI.sub('', self.screen)[-3000:]}")
        return ANSI.sub("", self.screen)

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            chunk = os.read(self.master, 65536)
        except OSError:
            return False
        self.screen += chunk.decode("utf-8", "replace")
        return bool(chunk)

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def finish(self, limit: float = 30.0) -> int:
        deadline = time.monotonic() + limit
        while self.proc.poll() is None and time.monotonic() < deadline:
            self._read(0.1)
        while self._read(0.05):
            pass
        os.close(self.master)
        if self.proc.poll() is None:
            self.proc.kill()
            raise AssertionError("the command did not end")
        return self.proc.returncode


def test_kata_watch_in_a_terminal(tmp_path, kata_home):
    env = dict(os.environ)
    subprocess.run([sys.executable, "-c", "import cli; cli.main()", "start", "gae"], cwd=tmp_path, check=True,
                   env=env | {"PYTHONPATH": str(ROOT)}, capture_output=True)
    term = Terminal(["watch", "--device", "cpu"], tmp_path, env)
    try:
        term.expect(r"not implemented yet")
        term.expect(r"h hint · r re-run, new seed · q quit")
        right(tmp_path / "gae.py")
        term.expect(r"PASS\s+gae: all \d+ cases passed")
        term.type("h")
        term.expect(r"Hint 1/\d")
        term.type("q")
    finally:
        code = term.finish()
    assert code == 0, term.screen[-2000:]
    kinds = [e.kind for e in Store().events("gae")]
    assert kinds[:2] == ["start", "stub"] and kinds.count("check") >= 1 and "hint" in kinds  # the stub's: no attempt


def test_kata_interview_in_a_terminal_records_the_time_to_pass(tmp_path, kata_home):
    term = Terminal(["interview", "--minutes", "5", "--topic", "rl", "--device", "cpu"], tmp_path, dict(os.environ))
    try:
        screen = term.expect(r"Interview: (\S+)")
        kata_id = re.search(r"Interview: (\S+)", screen).group(1)
        term.expect(r"0[45]:\d\d left")
        kata = catalog.get(kata_id)
        assert (tmp_path / kata.filename).read_text() == kata.stub()
        term.type("h")
        term.expect(r"Hint 1/")
        (tmp_path / kata.filename).write_text(f"# kata: {kata.id}\n" + kata.reference_path.read_text())
        term.expect(rf"Passed {kata.id} in \d+s \(1 hint, 0 reveals, 1 check\)")
        term.expect(r"Follow-up questions on")
        term.expect(r"Press a for the model answers")
        term.type("a")
        term.expect(kata.text().followups[0].answer.strip().split()[0])
    finally:
        code = term.finish()
    assert code == 0
    events = Store().events(kata_id)
    opened, closed = [e for e in events if e.kind == "interview"]
    assert opened.session == closed.session and closed.verdict == "pass" and closed.seconds > 0
    assert [e.session for e in events if e.kind in ("hint", "check")] == [opened.session] * 2
    assert Store().interview() is None
    assert [e.detail for e in events if e.kind == "followup"] == ["answers"]  # it is recorded that they were read


def test_kata_interview_times_out(tmp_path, kata_home):
    term = Terminal(["interview", "--minutes", "0.03", "--topic", "helpers", "--poll"], tmp_path, dict(os.environ))
    try:
        term.expect(r"Time's up")
    finally:
        code = term.finish()
    assert code == 1
    closed = Store().events("softmax", "interview")[-1]
    assert closed.verdict == "timeout"
    advice = re.search(r"kata reveal softmax[^.()]*", ANSI.sub("", term.screen).replace("\n", " "))
    assert advice and "--yes" in advice.group(0), term.screen[-1000:]  # a command that works as it is given
    done = subprocess.run([sys.executable, "-c", "import cli; cli.main()", *advice.group(0).split()[1:]], cwd=tmp_path,
                          env=dict(os.environ) | {"PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "reference" in done.stdout, done.stdout + done.stderr
    assert [e.kind for e in Store().events("softmax", "reveal")] == ["reveal"]


def test_the_countdown_line_is_cleared_when_an_interview_ends(tmp_path, keys):
    """The status line has no newline of its own: once the loop ends, what is printed next must not share the
    screen with a stale "02:29 left · watching …"."""
    import threading

    path = tmp_path / "gae.py"
    path.write_text(GAE.stub())
    out = io.StringIO()
    now = time.time()
    watcher = Watcher(GAE, path, Store(), Console(file=out, width=100, force_terminal=True), keys.reader, device="cpu",
                      seed=7, seconds=20.0, interview=Interview("iv", now + 60, now))
    threading.Timer(0.5, right, (path,)).start()
    assert watcher.run() == "pass"
    screen = out.getvalue()
    last = screen.rsplit("\r\x1b[2K", 1)
    assert len(last) == 2 and last[1] == "", repr(screen[-300:])  # the last thing written erases the line
    assert "left" in screen.rsplit("\r\x1b[2K", 2)[1]  # and that line was the countdown


def test_h_before_any_check_in_a_bug_interview_says_press_r(tmp_path, keys):
    from checker.app import drilling

    rope = catalog.get("rope")
    store = Store()
    written = drilling.write(rope, tmp_path, True, store).written
    now = time.time()
    out = io.StringIO()
    watcher = Watcher(rope, written.path, store, Console(file=out, width=100, force_terminal=False), keys.reader,
                      device="cpu", seed=7, interview=Interview("iv", now + 60, now))
    try:
        watcher.files.seen = signature(written.path)
        keys.press("h")
        until(watcher, lambda: bool(watcher.hints))
        said = out.getvalue()
        assert "press r" in said and "kata check" not in said, said[-500:]
    finally:
        watcher.files.close()


def test_reveal_asks_in_a_terminal(tmp_path, kata_home):
    for answer, shown in (("n", False), ("y", True)):
        term = Terminal(["reveal", "gae"], tmp_path, dict(os.environ))
        try:
            term.expect(r"Reveal the reference .*\[y/N\]")
            term.type(answer + "\n")
            if shown:
                term.expect(r"def compute_gae")
            else:
                term.expect(r"Nothing revealed")
        finally:
            assert term.finish() == 0
        assert [e.kind for e in Store().events("gae")] == (["reveal"] if shown else [])


def test_a_file_that_changes_during_its_check_is_checked_again_before_a_verdict_is_shown(tmp_path, keys, monkeypatch):
    """The check starts at once (no settling pause before it); a verdict is shown only for a file that stood still
    for the whole check: an editor still writing gets the file it finished, not the half it had written."""
    from checker.app import checking

    path = tmp_path / "gae.py"
    wrong(path)
    watcher, out = make_watcher(path, keys)
    real, calls = checking.check, []

    def check(*args, **kwargs):
        calls.append(path.read_text())
        checked = real(*args, **kwargs)
        if len(calls) == 1:
            right(path)  # the rest of the save lands while the first half is being checked
        return checked

    try:
        monkeypatch.setattr(checking, "check", check)
        result = watcher.recheck()
        assert len(calls) == 2 and calls[0] != calls[1]
        assert result.passed and watcher.checks == 1 and "FAIL" not in out.getvalue()
    finally:
        watcher.files.close()
    assert [e.verdict for e in Store().events("gae") if e.kind == "check"] == ["pass"]
