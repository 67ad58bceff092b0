"""Ctrl-C at any moment of a `kata` command, its first second of imports included, says "kata: interrupted.",
exits 130 and leaves no process behind: never a Python traceback (issue 31)."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from checker.text import catalog
from tests.conftest import ROOT

# The console script pip writes for `kata = cli:main`, word for word, with the checkout on the path and a mark
# that the interpreter has started: Ctrl-C while Python itself starts (its `site` import, before the script's
# first line) is Python's to report, out of kata's reach; from `from cli import main` on it is kata's.
CONSOLE_SCRIPT = f"""# -*- coding: utf-8 -*-
import os, sys
sys.path.insert(0, {str(ROOT)!r})
open(os.environ["KATA_TEST_STARTED"], "w").close()
import re
from cli import main
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit(main())
"""
INTERRUPTED = {"en": "kata: interrupted.", "zh": "kata：已中断。"}


def _before_kata(stderr: str) -> bool:
    """The signal came after the console script's mark but before cli.py's first line ran (Python still finding
    and reading cli's module): the traceback ends at `from cli import main`, with no frame of kata's."""
    frames = re.findall(r'File "([^"]+)", line \d+', stderr)
    return stderr.rstrip().endswith("KeyboardInterrupt") and bool(frames) and all(
        not f.startswith(str(ROOT)) for f in frames)


def _interrupt(tmp_path: Path, args: list[str], delay: float, lang: str = "en") -> tuple[int, str]:
    """`_interrupt_once`, again (three times at most) when the signal landed before kata's own first line."""
    for _ in range(3):
        code, stderr = _interrupt_once(tmp_path, args, delay, lang)
        if not _before_kata(stderr):
            break
    return code, stderr


def _interrupt_once(tmp_path: Path, args: list[str], delay: float, lang: str = "en") -> tuple[int, str]:
    """Run `kata ARGS` in its own process group, send the group SIGINT `delay` s after the console script starts
    (as a terminal's Ctrl-C does), and return the exit code and stderr once every process of the group has gone."""
    program = tmp_path / "bin" / "kata"
    program.parent.mkdir(exist_ok=True)
    program.write_text(CONSOLE_SCRIPT)
    started = tmp_path / "started"
    started.unlink(missing_ok=True)
    env = {**os.environ, "KATA_HOME": str(tmp_path / "home"), "KATA_LANG": lang, "COLUMNS": "80",
           "KATA_TEST_STARTED": str(started)}
    proc = subprocess.Popen([sys.executable, str(program), *args], cwd=tmp_path, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not started.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    time.sleep(delay)
    try:
        os.killpg(proc.pid, signal.SIGINT)
    except ProcessLookupError:
        pass  # it had finished
    try:
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # the worker and the learner's children end with it
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail(f"a process of `kata {' '.join(args)}` outlived it (Ctrl-C after {delay} s)")
    return proc.returncode, stderr


@pytest.mark.parametrize("delay", [0.05, 0.2, 0.5, 1.0])
def test_ctrl_c_during_kata_list_never_prints_a_traceback(tmp_path: Path, delay: float) -> None:
    code, stderr = _interrupt(tmp_path, ["list"], delay)
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    if code != 0:  # it may have finished before the signal came
        assert code == 130, stderr
        assert INTERRUPTED["en"] in stderr, stderr


@pytest.mark.parametrize("delay", [0.05, 0.2, 0.5, 1.0])
def test_ctrl_c_during_a_check_of_the_stub_never_prints_a_traceback(tmp_path: Path, delay: float) -> None:
    kata = catalog.get("gae")
    (tmp_path / kata.filename).write_text(kata.stub_path.read_text())
    code, stderr = _interrupt(tmp_path, ["check", kata.filename], delay)
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    if code != 1:  # the stub's check (a failure) may have ended before the signal came
        assert code == 130, stderr
        assert INTERRUPTED["en"] in stderr, stderr


def test_ctrl_c_while_starting_speaks_the_chosen_language(tmp_path: Path) -> None:
    code, stderr = _interrupt(tmp_path, ["list"], 0.2, lang="zh")
    assert code == 130 and INTERRUPTED["zh"] in stderr, stderr


def test_the_words_said_while_starting_are_the_translated_ones() -> None:
    import cli
    from checker.text import i18n
    from checker.text.i18n import tr

    assert cli._INTERRUPTED == INTERRUPTED
    for lang, words in INTERRUPTED.items():
        with i18n.speaking(lang):
            assert tr("kata: interrupted.") == words
