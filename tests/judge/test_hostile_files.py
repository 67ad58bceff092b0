"""Hostile and broken learner files: each gets a clear verdict, the right status, no leftovers.

Fixtures live in tests/fixtures/broken/ (like exercism's example-* folders): each file says what
it expects in its header — `# expect: pass|fail|error` and `# message: <text the report shows>`.
"""
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
from checker.judge.results import Status
from tests.conftest import ROOT, run_check

FIXTURES = sorted((ROOT / "tests" / "fixtures" / "broken").glob("*.py"))
SLOW = {"infinite_loop.py": 3.0, "sleep_at_import.py": 3.0}


@pytest.fixture(autouse=True)
def kata_home(tmp_path_factory, monkeypatch):
    """kata's home beside the learner's folder, not in it: the learner's code writes its markers there, and a
    folder that holds kata's home cannot be written (Landlock grants a folder with all it holds)."""
    home = tmp_path_factory.mktemp("kata-home")
    monkeypatch.setenv("KATA_HOME", str(home))
    return home


def _expectation(path: Path) -> tuple[Status, str]:
    text = path.read_text()
    status = re.search(r"^# expect: (\w+)", text, re.M).group(1)
    message = re.search(r"^# message: ?(.*)$", text, re.M).group(1)
    return Status(status), message


def _everything_said(result) -> str:
    parts = [result.message, result.hint]
    for case in result.cases:
        parts += [p.message for p in case.problems]
        if case.error:
            parts += [case.error.type, case.error.message, case.error.traceback]
    return "\n".join(parts)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_broken_file_gets_a_clear_verdict(path, tmp_path):
    expected_status, expected_text = _expectation(path)
    target = tmp_path / path.name
    target.write_bytes(path.read_bytes())
    started = time.monotonic()
    result = run_check(target, "gae", seed=5, timeout=SLOW.get(path.name, 60.0), memory_bytes=1 << 30)
    assert time.monotonic() - started < 60
    said = _everything_said(result)
    assert result.status is expected_status, said
    assert expected_text in said, said


def test_a_timeout_in_a_per_row_loop_says_how_many_rows_and_how_long_a_row_took(tmp_path):
    """A right sampler written for one row and called per row needs more than the limit over the distribution cases
    (thousands of rows each): the timeout says the rows it was given and the time a row took, not a bare timeout
    (issue 31). A short limit keeps the test fast."""
    target = tmp_path / "sample_token.py"
    target.write_bytes((ROOT / "tests" / "fixtures" / "slow" / "sample_token_row_loop.py").read_bytes())
    result = run_check(target, "sample-token", seed=5, timeout=3.0, name=False)
    assert result.status is Status.ERROR and result.message.startswith("Timed out after 3 s in case "), result.message
    assert re.search(r"your function was called with (up to )?[\d,]+ rows", result.message), result.message
    assert re.search(r"[\d.]+ ms a row", result.message) and "A Python loop over the rows?" in result.message, \
        result.message
    assert "an endless loop, or very slow code" not in result.message


def test_an_endless_loop_still_times_out_in_plain_words(tmp_path):
    target = tmp_path / "gae.py"
    target.write_bytes((ROOT / "tests" / "fixtures" / "broken" / "infinite_loop.py").read_bytes())
    result = run_check(target, "gae", seed=5, timeout=2.0, name=False)
    assert "an endless loop, or very slow code?" in result.message and "ms a row" not in result.message, result.message


@pytest.mark.parametrize("content, text", [
    (b"", "is empty"),
    (b"   \n\n", "is empty"),
    (b"\x7fELF\x02\x01\x00\x00binary", "binary file"),
    ("# kata: gae\nx = 'caf\xe9'\n".encode("latin-1"), "not valid UTF-8"),
])
def test_unreadable_sources_are_errors(tmp_path, content, text):
    target = tmp_path / "gae.py"
    target.write_bytes(content)
    result = run_check(target, "gae")
    assert result.status is Status.ERROR
    assert text in result.message


def test_a_backup_file_is_checked_like_any_python_file(tmp_path):
    """`kata reset` and `start --force` keep the learner's file as gae.py.bak-1; checking it once failed
    with "'NoneType' object has no attribute 'loader'" (no .py, no loader)."""
    backup = tmp_path / "gae.py.bak-1"
    backup.write_text("# kata: gae\n" + catalog.get("gae").reference_path.read_text())
    result = run_check(backup)
    assert result.status is Status.PASS, result.message


def test_printing_megabytes_is_captured_and_cut(tmp_path):
    target = tmp_path / "gae.py"
    target.write_bytes((ROOT / "tests/fixtures/broken/prints_megabytes.py").read_bytes())
    result = run_check(target, "gae", seed=3)
    assert result.status is Status.PASS
    assert len(result.output) < 10_000 and "earlier bytes cut" in result.output


def test_a_child_process_that_outlives_the_check_is_killed(tmp_path):
    marker = tmp_path / "pid"
    target = tmp_path / "gae.py"
    target.write_text(
        "# kata: gae\nimport subprocess\n"
        f"p = subprocess.Popen(['sleep', '300'])\nopen({str(marker)!r}, 'w').write(str(p.pid))\n"
        "def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):\n    return rewards, rewards\n")
    result = run_check(target, "gae")
    assert result.status is Status.FAIL
    pid = int(marker.read_text())
    for _ in range(50):
        if not _alive(pid):
            break
        time.sleep(0.05)
    assert not _alive(pid), "the learner's child process outlived the check"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is dead for our purposes
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "State:\tZ" in status.read_text())


def test_ctrl_c_during_a_check_exits_130_and_ends_the_learner(tmp_path, kata_home):
    marker = tmp_path / "pid"
    (tmp_path / "gae.py").write_text(
        "# kata: gae\nimport os, time\n"
        "def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):\n"
        f"    open({str(marker)!r}, 'w').write(str(os.getpid()))\n    time.sleep(300)\n")
    env = {**os.environ, "KATA_HOME": str(kata_home)}
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "check", "gae.py"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    for _ in range(300):
        if marker.exists() and marker.read_text():
            break
        time.sleep(0.05)
    learner = int(marker.read_text())
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and b"kata: interrupted." in err, err
    time.sleep(0.2)
    assert not _alive(learner)
    assert (tmp_path / "gae.py").exists()


def test_a_module_with_misnamed_parameters_is_told_which(tmp_path):
    source = (ROOT / "reference" / "mha.py").read_text().replace("self.w_q", "self.wq")
    target = tmp_path / "mha.py"
    target.write_text("# kata: mha\n" + source)
    result = run_check(target, "mha", seed=2)
    assert result.status is Status.ERROR
    said = _everything_said(result)
    assert "missing w_q.weight, w_q.bias" in said and "unexpected wq.weight, wq.bias" in said, said


# ---------------------------------------------------------------- files of every shape

BROKEN = ROOT / "tests" / "fixtures" / "broken"


def test_the_shaped_fixtures_hold_the_bytes_they_are_about():
    """Were git to convert line endings or an editor to drop the mark, the fixtures above would test nothing."""
    for name in ("utf8_bom.py", "utf8_bom_crlf.py"):
        assert (BROKEN / name).read_bytes().startswith(b"\xef\xbb\xbf# kata: gae"), name
    for name in ("crlf_line_endings.py", "utf8_bom_crlf.py"):
        data = (BROKEN / name).read_bytes()
        assert data.count(b"\r\n") == data.count(b"\n") > 10, name
    assert b"\n\t\t" in (BROKEN / "tab_indentation.py").read_bytes()


def test_a_file_with_a_byte_order_mark_is_found_by_its_kata_line(tmp_path):
    from checker.app import commands
    from checker.app.state import Store

    target = tmp_path / "my_attempt.py"  # no kata is called that: only the '# kata:' line names it
    target.write_bytes((BROKEN / "utf8_bom_crlf.py").read_bytes())
    assert commands.resolve_target(str(target), None, Store()).kata.id == "gae"
    assert run_check(target, seed=2).status is Status.PASS


def test_modules_beside_the_learners_file_import_as_in_a_script(tmp_path):
    (tmp_path / "gae_helpers.py").write_text(
        "import torch\n\ndef discounted(rewards, dones, values, gamma, lam):\n"
        "    T = rewards.shape[0]\n    nd = 1.0 - dones.to(rewards.dtype)\n    adv = torch.zeros_like(rewards)\n"
        "    gae, nxt = torch.zeros_like(rewards[0]), torch.zeros_like(rewards[0])\n"
        "    for t in reversed(range(T)):\n        delta = rewards[t] + gamma * nxt * nd[t] - values[t]\n"
        "        gae = delta + gamma * lam * nd[t] * gae\n        adv[t], nxt = gae, values[t]\n    return adv\n")
    target = tmp_path / "gae.py"
    target.write_text("# kata: gae\nfrom gae_helpers import discounted\n\n"
                      "def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):\n"
                      "    adv = discounted(rewards, dones, values, gamma, lam)\n"
                      "    return (adv - adv.mean()) / (adv.std() + 1e-8), adv + values\n")
    assert run_check(target, "gae", seed=2).status is Status.PASS


def test_top_level_prints_are_captured_and_shown(tmp_path):
    target = tmp_path / "gae.py"
    target.write_bytes((BROKEN / "top_level_test_prints.py").read_bytes())
    result = run_check(target, "gae", seed=2)
    assert result.status is Status.PASS and "trying my function: (tensor(" in result.output, result.output


# ---------------------------------------------------------------- not implemented: the stub's, or torch's


@pytest.mark.parametrize("kata_id", ["gae", "mha"])
def test_the_stub_is_not_implemented_yet(tmp_path, kata_id):
    from checker.text import catalog

    kata = catalog.get(kata_id)
    target = tmp_path / kata.filename
    target.write_text(kata.stub("en"))
    result = run_check(target, kata_id, seed=2)
    assert result.status is Status.ERROR and "is not implemented yet" in result.message, result.message


def test_a_stub_whose_message_was_changed_is_still_the_stub(tmp_path):
    target = tmp_path / "gae.py"
    target.write_text("# kata: gae\n\n\ndef compute_gae(rewards, values, dones, gamma, lam):\n"
                      "    \"\"\"My notes.\"\"\"\n    pass\n    raise NotImplementedError('TODO')\n")
    result = run_check(target, "gae", seed=2)
    assert result.status is Status.ERROR and "is not implemented yet" in result.message, result.message


def test_a_learner_s_own_not_implemented_error_on_the_first_case_is_not_the_stub(tmp_path):
    """verl raises NotImplementedError(f"unknown kind {kind}"): a raise of the learner's, in a function that does
    more than raise, with its own message, is judged case by case (issue 31), every case."""
    target = tmp_path / "gae.py"
    target.write_text("# kata: gae\n\n\ndef compute_gae(rewards, values, dones, gamma, lam):\n"
                      "    T = len(rewards)\n    raise NotImplementedError(f'no GAE for T={T} yet')\n")
    result = run_check(target, "gae", seed=2, name=False)
    assert result.status is Status.ERROR and "not implemented yet" not in result.message, result.message
    assert len(result.cases) == result.planned and all(c.error.type == "NotImplementedError" for c in result.cases)
    assert "no GAE for T=" in result.cases[0].error.message


def test_a_not_implemented_error_from_torch_is_an_error_of_the_case(tmp_path):
    target = tmp_path / "gae.py"
    target.write_bytes((BROKEN / "torch_not_implemented.py").read_bytes())
    result = run_check(target, "gae", seed=2)
    assert result.status is Status.ERROR and "not implemented yet" not in result.message, result.message
    first = result.cases[0]
    assert first.error.type == "NotImplementedError" and "SparseCPU" in first.error.message
    assert "rewards.to_sparse().flip(0)" in first.error.traceback  # the learner's own line, shown
    assert len(result.cases) > 1  # the check went on past the first case


def test_a_not_implemented_error_raised_by_torchs_python_code_is_not_a_stub_either(tmp_path):
    """nn.Module.forward itself raises NotImplementedError (a raise statement, in torch's file, not the learner's)."""
    source = (ROOT / "reference" / "mha.py").read_text().replace("def forward(self, x", "def attend(self, x")
    source += "\n    def forward(self, x, mask=None):\n        return nn.Module.forward(self, x)\n"
    target = tmp_path / "mha.py"
    target.write_text("# kata: mha\n" + source)
    result = run_check(target, "mha", seed=2, case="no_mask")
    said = _everything_said(result)
    assert result.status is Status.ERROR and "not implemented yet" not in said, said
    assert 'missing the required "forward" function' in said and "return nn.Module.forward(self, x)" in said, said
