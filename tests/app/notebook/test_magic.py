"""`%%kata`, `kata.check` and the warm checker in a real kernel: verdicts, reports, the stop button, a dead checker,
a killed kernel. One kernel for the module (its checker warms once); each test names its own KATA_HOME files."""
from __future__ import annotations

import json
import re
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.app.notebook.harness import Kernel
from tests.conftest import CORPUS, ROOT

GAE = (ROOT / "reference" / "gae.py").read_text(encoding="utf-8")
WRONG_GAE = (CORPUS / "gae" / "wrong_dones_ignored.py")


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    return tmp_path_factory.mktemp("notebook-home")


@pytest.fixture(scope="module")
def kernel(home):
    with Kernel(env={"KATA_HOME": str(home), "KATA_LANG": "en", "NO_COLOR": "1"}, cwd=str(home)) as k:
        ran = k.run("import kata")
        assert ran.error is None, ran.text
        yield k


def plain(text: str) -> str:
    """Output as a reader sees it: rich's colours in a notebook's text/plain are ANSI escapes."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def cell(kata_line: str, body: str) -> str:
    return f"%%kata {kata_line}\n{body}"


def processes() -> dict[int, tuple[int, str, str]]:
    """pid -> (parent, state, command line) of every process, from /proc."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read().decode(errors="replace")
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                command = handle.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        found[int(entry)] = (int(fields[1]), fields[0], command)
    return found


def running_checkers(marker: str) -> list[int]:
    """Live (not zombie) processes of a warm checker started for the kernel whose pid is `marker`."""
    return [pid for pid, (_, state, command) in processes().items()
            if "checker.app.notebook.server" in command and f" {marker} " in f" {command} " and state != "Z"]


def test_import_is_cheap_and_silent():
    """Cheap by what it loads (no torch, typer, rich or numpy), not by a time: timed tests fail on a loaded machine."""
    code = ("import sys; import kata; "
            "print(*(m in sys.modules for m in ('torch', 'typer', 'rich', 'numpy', 'IPython')))")
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert ran.stdout.split() == ["False"] * 5 and ran.stderr == ""


def test_a_right_cell_passes_and_is_saved_where_the_cli_finds_it(kernel, home):
    ran = kernel.run(cell("gae", GAE))
    assert ran.error is None, ran.text
    assert "PASS" in ran.text and "gae: all" in ran.text
    assert "kata.followup(\"gae\")" in ran.text  # commands in messages as a notebook calls them
    saved = home / "notebook" / "gae.py"
    assert saved.read_text(encoding="utf-8") == GAE
    cli = subprocess.run([str(Path(sys.executable).with_name("kata")), "check", "gae", "--json"], capture_output=True,
                         text=True, env={**os.environ, "KATA_HOME": str(home)}, cwd=home)
    assert json.loads(cli.stdout)["verdict"] == "pass" and cli.returncode == 0, cli.stderr


def test_a_wrong_cell_fails_names_the_case_and_reproduces_in_the_notebook(kernel):
    ran = kernel.run(cell("gae --seed 7", WRONG_GAE.read_text(encoding="utf-8")))
    assert ran.error is None
    assert "FAIL" in ran.text
    line = next(line for line in plain(ran.text).splitlines() if "kata.check(\"gae\", seed=7, case=" in line)
    again = kernel.run(line.strip())  # the reproduce line, run as the learner would paste it
    assert again.error is None and "FAIL" in again.text
    assert "1 of 1" in again.text or "0 of 1" in again.text


def test_the_cell_runs_in_the_notebook_too(kernel):
    ran = kernel.run(cell("gae", GAE + "\nprint('defined here')\n"))
    assert "defined here" in ran.text
    assert kernel.run("compute_gae.__name__").text.strip() == "'compute_gae'"


def test_crashing_cells_are_verdicts_and_the_kernel_lives(kernel):
    bodies = {
        "segfault": "import ctypes\ndef compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):\n"
                    "    ctypes.string_at(0)\n",
        "exit": "import os\ndef compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):\n    os._exit(3)\n",
        "memory": "import torch\ndef compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):\n"
                  "    return torch.empty(2**40)\n",
        "endless": "def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):\n    while True:\n        pass\n",
    }
    for name, body in bodies.items():
        ran = kernel.run(cell("gae --timeout 3 --memory-gb 1", body), timeout=60)
        assert ran.error is None, (name, ran.text)
        assert "ERROR" in ran.text or "FAIL" in ran.text, (name, ran.text)
        if name == "endless":
            assert "Timed out after 3 s in case" in ran.text
    assert kernel.run("1 + 1").text.strip() == "2"


def test_a_usage_error_is_one_line_and_an_error_status(kernel):
    ran = kernel.run(cell("no-such-kata", "x = 1"))
    assert ran.error is not None
    assert ran.traceback and len(ran.traceback) == 1 and "no-such-kata" in ran.traceback[0]
    ran = kernel.run(cell("gae --seed minus", "x = 1"))
    assert ran.error is not None and "%%kata" in ran.traceback[0]
    ran = kernel.run("%kata gae")
    assert ran.error is not None and "two percent signs" in ran.traceback[0]
    ran = kernel.run("kata.check('gae', timeout=-1)")
    assert ran.error is not None and "positive" in ran.traceback[0]


def test_the_stop_button_ends_the_check_records_nothing_and_the_next_check_works(kernel, home):
    from checker.app.state import Store

    before = len(Store(home).events("gae"))
    pending = kernel.run_async(cell("gae --timeout 60", "def compute_gae(rewards, dones, values, gamma=0.99, "
                                                        "lam=0.95):\n    while True:\n        pass\n"), timeout=60)
    kernel.started(pending)
    time.sleep(2.0)  # the check is running the learner's endless loop by now
    pressed = time.monotonic()
    kernel.interrupt()
    ran = kernel.wait(pending)
    assert time.monotonic() - pressed < 2.5
    assert ran.error is not None and ran.error[0] == "Stopped"
    assert ran.traceback == ["kata: stopped; nothing was recorded."]
    assert [e.kind for e in Store(home).events("gae")][before:] == []
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and len(running_checkers(str(kernel.pid))) > 1:
        time.sleep(0.1)
    assert len(running_checkers(str(kernel.pid))) == 1  # the warm checker lives on; the learner's loop is gone
    ran = kernel.run(cell("gae", GAE))
    assert "PASS" in ran.text


def test_a_checker_that_dies_is_one_line_and_the_next_check_starts_another(kernel):
    checkers = running_checkers(str(kernel.pid))
    assert len(checkers) == 1
    pending = kernel.run_async(cell("gae --timeout 60", "def compute_gae(rewards, dones, values, gamma=0.99, "
                                                        "lam=0.95):\n    while True:\n        pass\n"), timeout=60)
    kernel.started(pending)
    time.sleep(1.0)
    os.kill(checkers[0], 9)
    ran = kernel.wait(pending)
    assert ran.error is not None
    assert "kata's checker stopped (killed by signal 9); the next check starts a fresh one." in ran.error[1]
    assert kernel.run("1 + 1").text.strip() == "2"
    ran = kernel.run(cell("gae", GAE))
    assert "PASS" in ran.text
    assert running_checkers(str(kernel.pid)) not in ([], checkers)


def test_code_over_cells_is_checked_and_says_which_cells(kernel, home):
    kernel.run("import torch as th")
    kernel.run("EPS = 1e-8")
    kernel.run("def normalised(x):\n    return (x - x.mean()) / (x.std() + EPS)\n")
    body = GAE.replace("import torch\n", "").replace("torch.", "th.")
    body = body.replace("(advantages - advantages.mean()) / (advantages.std() + 1e-8)", "normalised(advantages)")
    assert "normalised(advantages)" in body
    ran = kernel.run(body)
    assert ran.error is None, ran.text
    ran = kernel.run("r = kata.check('gae')\nr.passed")
    assert ran.error is None, ran.text
    said = plain(ran.text).splitlines()[0]
    assert re.fullmatch(r"kata\.check took normalised from cell \[\d+\], compute_gae from cell \[\d+\]; "
                        r"imports: th; constants: EPS\.", said), said
    assert plain(ran.text).splitlines()[-1] == "True"
    built = (home / "notebook" / "gae.py").read_text(encoding="utf-8")
    assert "import torch as th" in built and "EPS = 1e-08" in built and "def normalised" in built


def test_a_refusal_is_a_sentence(kernel):
    kernel.run("import torch\nW = torch.ones(3)\n"
               "def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):\n    return W, W\n")
    ran = kernel.run("kata.check('gae')")
    assert ran.error is not None and len(ran.traceback) == 1
    assert "`W` is a value computed in the notebook" in ran.traceback[0]


def test_the_kernel_killed_leaves_nothing_running(home):
    with Kernel(env={"KATA_HOME": str(home), "KATA_LANG": "en"}, cwd=str(home)) as k:
        k.run("import kata")
        pending = k.run_async(cell("gae --timeout 60", "import os\ndef compute_gae(rewards, dones, values, "
                                   "gamma=0.99, lam=0.95):\n    if os.fork() == 0:\n        os.setsid()\n"
                                   "        while True:\n            pass\n    while True:\n        pass\n"), timeout=60)
        k.started(pending)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and len(running_checkers(str(k.pid))) < 3:
            time.sleep(0.2)  # the checker, the learner's child and the grandchild that left for its own session
        started = running_checkers(str(k.pid))
        assert len(started) >= 3
        marker = str(k.pid)
        k.kill()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and running_checkers(marker):
            time.sleep(0.1)
        assert running_checkers(marker) == []


def test_a_class_in_a_cell_is_checked_from_its_cell(kernel, home):
    """inspect.getsource fails for a class defined in a cell (ipython/ipython#11249); kata.check finds its cell."""
    kernel.run("import torch\nimport torch.nn as nn")
    kernel.run("def mean_square(h):\n    return torch.einsum('...d,...d->...', h, h).unsqueeze(-1) / h.shape[-1]\n")
    ran = kernel.run("class RMSNorm(nn.Module):\n"
                     "    def __init__(self, dim: int, eps: float = 1e-6):\n"
                     "        super().__init__()\n        self.eps = eps\n"
                     "        self.weight = nn.Parameter(torch.ones(dim))\n\n"
                     "    def forward(self, x):\n"
                     "        h = x.double() if x.dtype == torch.float64 else x.float()\n"
                     "        return (h * (mean_square(h) + self.eps).rsqrt() * self.weight.to(h.dtype)).to(x.dtype)\n")
    assert ran.error is None, ran.text
    ran = kernel.run("r = kata.check('rmsnorm')\nr.passed")
    assert ran.error is None, ran.text
    said = plain(ran.text).splitlines()[0]
    assert re.fullmatch(r"kata\.check took mean_square from cell \[\d+\], RMSNorm from cell \[\d+\]; imports: nn, "
                        r"torch\.", said), said
    assert plain(ran.text).splitlines()[-1] == "True"
    assert "class RMSNorm(nn.Module):" in (home / "notebook" / "rmsnorm.py").read_text(encoding="utf-8")
    # The same class, wrong, in a new cell: the check follows the cell that defines RMSNorm now, and fails.
    kernel.run("class RMSNorm(nn.Module):\n"
               "    def __init__(self, dim: int, eps: float = 1e-6):\n"
               "        super().__init__()\n        self.eps = eps\n"
               "        self.weight = nn.Parameter(torch.ones(dim))\n\n"
               "    def forward(self, x):\n"
               "        return x / x.std(-1, keepdim=True) * self.weight\n")
    ran = kernel.run("kata.check('rmsnorm').passed")
    assert plain(ran.text).splitlines()[-1] == "False", ran.text
