"""`kata check` run as a program checks in a worker forked before typer is imported (checker/app/prefork.py): the
same verdicts, reports and exit codes as a check in one process, torch never in the first process, no worker
left behind when no check runs, and Ctrl-C or a worker that dies ending everything with a clear word."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from checker.text import catalog
from checker.app import prefork
from checker.errors import KataError
from tests.conftest import ROOT

# A program named `kata` that runs cli.main() and, as it exits, says whether it imported torch and whether a
# child of it is still there: prefork forks only for `kata` and `cli.py`, as a console script is named.
PROGRAM = f"""
import atexit, json, os, sys
sys.path.insert(0, {str(ROOT)!r})

def said():
    try:
        left = os.waitpid(-1, os.WNOHANG)[0] != 0 or "a child still running"
    except ChildProcessError:
        left = None
    with open(os.environ["KATA_SAID"], "w") as out:
        json.dump({{"torch": "torch" in sys.modules, "worker": prefork._worker is not None, "left": left}}, out)

atexit.register(said)  # registered first: runs after prefork's own clean-up
from checker.app import prefork
from cli import main
main()
"""


def _kata(tmp_path: Path, *args: str, prefork_on: bool = True, lang: str = "en") -> tuple[subprocess.CompletedProcess, dict]:
    program = tmp_path / "bin" / "kata"
    program.parent.mkdir(exist_ok=True)
    program.write_text(PROGRAM)
    said = tmp_path / "said.json"
    said.unlink(missing_ok=True)
    env = {**os.environ, "KATA_HOME": str(tmp_path / "home"), "KATA_SAID": str(said), "KATA_LANG": lang,
           "KATA_PREFORK": "1" if prefork_on else "0", "COLUMNS": "100"}
    done = subprocess.run([sys.executable, str(program), *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    return done, json.loads(said.read_text())


def _learner_file(tmp_path: Path, kata_id: str, source: Path | None = None) -> Path:
    kata = catalog.get(kata_id)
    target = tmp_path / kata.filename
    text = (source or kata.reference_path).read_text()
    target.write_text(text if "# kata:" in text else f"# kata: {kata_id}\n{text}")
    return target


@pytest.mark.parametrize(("argv", "wanted"), [
    (["/usr/bin/kata", "check", "gae"], True),
    (["cli.py", "check"], True),
    (["kata", "--lang", "zh", "check", "gae.py"], True),
    (["kata", "--lang=zh", "check"], True),
    (["kata", "check", "gae", "--lang", "en"], True),
    (["kata", "check", "--help"], False),
    (["kata", "check", "-h"], False),
    (["kata", "list"], False),
    (["kata", "--lang", "check"], False),  # `check` is --lang's value here (a usage error), not the command
    (["kata"], False),
    (["kata", "watch", "gae"], False),  # a watcher checks again and again in its own process
    (["/usr/bin/pytest", "check"], False),  # cli imported by another program
    (["-c", "check"], False),
])
def test_only_kata_check_run_as_a_program_forks(argv, wanted, monkeypatch):
    monkeypatch.delenv("KATA_PREFORK", raising=False)
    monkeypatch.delenv("_KATA_COMPLETE", raising=False)
    assert prefork.wanted(argv) is wanted
    monkeypatch.setenv("KATA_PREFORK", "0")
    assert prefork.wanted(argv) is False


def test_shell_completion_never_forks(monkeypatch):
    monkeypatch.setenv("_KATA_COMPLETE", "complete_bash")
    assert prefork.wanted(["kata", "check", "g"]) is False


def _same_report(one: dict, other: dict) -> None:
    """Two --json reports of one seed agree on everything but the seconds they took."""
    def strip(data):
        if isinstance(data, dict):
            return {k: strip(v) for k, v in data.items() if k not in ("seconds", "t")}
        if isinstance(data, list):
            return [strip(v) for v in data]
        return data
    assert strip(one) == strip(other)


@pytest.mark.parametrize(("kata_id", "source", "code"), [
    ("gae", None, 0),
    ("gae", ROOT / "tests/corpus/gae/wrong_bootstrap_last_value.py", 1),
    ("mha", None, 0),
])
def test_a_check_in_the_worker_is_the_check_in_one_process(tmp_path, kata_id, source, code):
    target = _learner_file(tmp_path, kata_id, source)
    forked, said = _kata(tmp_path, "check", target.name, "--seed", "4242", "--json")
    assert said == {"torch": False, "worker": False, "left": None}, "torch was imported by the first process"
    alone, said_alone = _kata(tmp_path, "check", target.name, "--seed", "4242", "--json", prefork_on=False)
    assert said_alone["torch"] is True  # the same check, done in one process
    assert forked.returncode == alone.returncode == code, forked.stderr + alone.stderr
    _same_report(json.loads(forked.stdout), json.loads(alone.stdout))


def test_the_report_reads_the_same_in_chinese(tmp_path):
    target = _learner_file(tmp_path, "gae", ROOT / "tests/corpus/gae/wrong_bootstrap_last_value.py")
    forked, said = _kata(tmp_path, "check", target.name, "--seed", "77", lang="zh")
    alone, _ = _kata(tmp_path, "check", target.name, "--seed", "77", lang="zh", prefork_on=False)
    assert said["torch"] is False and forked.returncode == alone.returncode == 1
    assert "未通过" in forked.stdout and "看起来是" in forked.stdout  # the verdict and the mistake named, in Chinese
    strip = lambda text: [line for line in text.splitlines() if "s ·" not in line and " s)" not in line]  # noqa: E731
    assert strip(forked.stdout) == strip(alone.stdout)


@pytest.mark.parametrize("args", [
    ("check", "syntax_error.py"),  # judged from its text: no torch needed
    ("check", "nothere.py"),
    ("check", "gae", "--seed", "-1"),
    ("check", "gae", "--nope"),
])
def test_no_worker_outlives_a_check_that_needs_no_torch(tmp_path, args):
    (tmp_path / "syntax_error.py").write_text("# kata: gae\ndef compute_gae(:\n")
    done, said = _kata(tmp_path, *args)
    assert done.returncode in (1, 2), done.stderr
    assert said == {"torch": False, "worker": False, "left": None}


def test_errors_in_the_worker_are_raised_as_they_would_be_here(tmp_path, monkeypatch):
    target = _learner_file(tmp_path, "gae")
    request = dict(kata=catalog.get("gae"), path=target, device="auto", seed=3, case=None, timeout=30.0, memory_gb=4.0,
                   bench=False)
    try:
        prefork.start()
        result = prefork.check(request)
    finally:
        prefork.stop()
    assert result.passed and result.seed == 3
    if not __import__("torch").cuda.is_available():
        prefork.start()
        with pytest.raises(KataError) as raised:
            prefork.check({**request, "device": "cuda"})
        assert "CUDA" in raised.value.message and raised.value.exit_code == 2
    prefork.start()
    with pytest.raises(RuntimeError) as raised:
        prefork.check({**request, "seed": "not a number"})
    assert type(raised.value).__name__ == "TypeError"  # the worker's exception, by name
    assert prefork._worker is None


def test_a_worker_dead_before_the_request_is_an_internal_error_not_a_closed_pipe(tmp_path):
    """Writing the request to a worker that has died raises BrokenPipeError, which kata's main reads as a reader
    that went away (| head) and exits 0: it must be said as the worker's end instead."""
    target = _learner_file(tmp_path, "gae")
    prefork.start()
    os.kill(prefork._worker[0], signal.SIGKILL)
    time.sleep(0.2)
    with pytest.raises(RuntimeError, match="ended without an answer.*signal 9"):
        prefork.check(dict(kata=catalog.get("gae"), path=target, device="auto", seed=3, case=None, timeout=30.0,
                           memory_gb=4.0, bench=False))
    assert prefork._worker is None


def _check_a_sleeping_learner(tmp_path: Path, **popen) -> tuple[subprocess.Popen, int]:
    """`cli.py check` of a gae file whose first case sleeps: (kata's process, the learner's pid) once it sleeps."""
    marker = tmp_path / "pid"
    (tmp_path / "gae.py").write_text(
        "# kata: gae\nimport os, time\n"
        "def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):\n"
        f"    open({str(marker)!r}, 'w').write(str(os.getpid()))\n    time.sleep(300)\n")
    # kata's home beside the folder the learner's code writes its marker in: a folder that holds it cannot be written
    env = {**os.environ, "KATA_HOME": str(tmp_path.with_name(tmp_path.name + "-home")), "KATA_PREFORK": "1"}
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "check", "gae.py"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)
    for _ in range(400):
        if marker.exists() and marker.read_text():
            break
        time.sleep(0.05)
    return proc, int(marker.read_text())


def _ends(pid: int) -> bool:
    """Whether `pid` is gone (a zombie counts as gone) within 5 s."""
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        status = Path(f"/proc/{pid}/status")
        if status.exists() and "State:\tZ" in status.read_text():
            return True
        time.sleep(0.05)
    return False


def test_a_worker_that_dies_is_an_internal_error_and_takes_the_learner_with_it(tmp_path):
    proc, learner = _check_a_sleeping_learner(tmp_path)
    worker = int(Path(f"/proc/{learner}/stat").read_text().split(")")[1].split()[1])  # the learner's parent
    assert worker != proc.pid
    os.kill(worker, signal.SIGKILL)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 3 and "internal error" in err and "killed by signal 9" in err, err
    assert _ends(learner), "the learner's child outlived the worker"


def test_ctrl_c_sent_to_kata_alone_stops_the_worker_and_the_learner(tmp_path):
    proc, learner = _check_a_sleeping_learner(
        tmp_path, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))  # started as a background job is
    os.kill(proc.pid, signal.SIGINT)  # kata's process only, not its group
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "kata: interrupted." in err, err
    assert _ends(learner)
