"""The newcomer's path (shared/findings/newcomer-walkthrough.md): every command as installed, with
and without its arguments, in narrow and wide terminals, in pipes, and on terminals that cannot
print UTF-8 — never a traceback, never a lost word, never a command that does not do what it says.
"""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from checker.text import catalog
from checker.app.state import Event, Store
from tests.conftest import ROOT

COMMANDS = ("list", "start", "check", "watch", "hint", "reveal", "followup", "cases", "stats", "next", "interview",
            "reset", "demo", "config", "bug")


def kata(*args: str, cwd: Path, columns: int = 80, env: dict | None = None, stdin: str | None = None):
    environ = {**os.environ, "COLUMNS": str(columns), "KATA_LANG": "en", **(env or {})}
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], cwd=cwd, capture_output=True, text=True,
                          env=environ, input=stdin if stdin is not None else "", timeout=180)


def no_traceback(done: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def right(kata_id: str, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# kata: {kata_id}\n" + catalog.get(kata_id).reference_path.read_text())


# ---------------------------------------------------------------- 1. arguments, as installed


@pytest.mark.parametrize("command", [c for c in COMMANDS if c != "interview"])  # that one starts the clock
def test_every_command_without_arguments_gives_a_message_not_a_traceback(command, here):
    done = kata(command, cwd=here)
    no_traceback(done)
    assert done.returncode in (0, 1, 2), (done.returncode, done.stderr)
    if done.returncode == 2:
        assert done.stderr.startswith("kata: ") and len(done.stderr.strip().splitlines()) <= 2, done.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_explains_its_arguments(command, here):
    done = kata(command, "--help", cwd=here, columns=100)
    assert done.returncode == 0, done.stderr
    assert "Example: kata" in " ".join(done.stdout.split()), done.stdout
    assert "[default: None]" not in done.stdout
    if command in ("check", "watch", "hint", "reveal", "start"):
        assert "kata id" in done.stdout.lower(), done.stdout


def test_kata_alone_says_where_you_stand(here):
    fresh = kata(cwd=here)
    assert fresh.returncode == 0 and "0 of" in fresh.stdout and "kata demo gae" in fresh.stdout
    kata("start", "gae", cwd=here)
    right("gae", here / "gae.py")
    kata("check", "gae", cwd=here)
    after = kata(cwd=here)
    assert "1 of" in after.stdout and "Current: gae" in after.stdout and "Next: kata start" in after.stdout, after.stdout


def test_hint_and_reveal_act_on_the_current_kata(here):
    assert kata("hint", cwd=here).returncode == 2  # no current kata yet: a usage error
    kata("start", "mc-advantage", cwd=here)
    hint = kata("hint", cwd=here)
    assert hint.returncode == 0 and "Hint 1/" in hint.stdout and "mc-advantage" in hint.stdout
    reveal = kata("reveal", "--yes", cwd=here)
    assert reveal.returncode == 0 and "def compute_mc_advantage" in reveal.stdout


def test_bad_options_are_usage_errors(here):
    right("gae", here / "gae.py")
    for args, says in ((["check", "gae", "--seed", "99999999999999999999999"], "--seed must be"),
                       (["check", "gae", "--seed", "-1"], "--seed must be"),
                       (["check", "gae", "--case", "nope"], "No case named 'nope'"),
                       (["check", "gae", "--device", "tpu"], "Unknown device"),
                       (["check", "gae", "--timeout", "0"], "must be positive"),
                       (["list", "--topic", "vision"], "No topic named"),
                       (["--lang", "fr", "list"], "not a language"),
                       (["config", "lang", "fr"], "must be one of"),
                       (["check", "."], "Give a kata id or the path"),
                       (["check", ""], "Give a kata id or the path")):
        done = kata(*args, cwd=here)
        assert done.returncode == 2 and says in done.stderr, (args, done.stderr)
        no_traceback(done)


# ---------------------------------------------------------------- 2. content prints literally


@pytest.mark.parametrize("kata_id", ["gae", "mc-advantage", "offset-causal-mask"])
def test_every_hint_prints_exactly_as_written(kata_id, here):
    hints = catalog.get(kata_id).text("en").hints
    shown = [" ".join(kata("hint", kata_id, cwd=here, columns=400).stdout.split()) for _ in hints]
    for number, text in enumerate(hints, 1):
        assert " ".join(text.split()) in shown[number - 1], (shown[number - 1], text)


# ---------------------------------------------------------------- 3. terminals that cannot print UTF-8


@pytest.mark.parametrize("args", [["list"], ["hint", "gae"], ["check", "gae", "--seed", "3"], ["start"]])
def test_an_ascii_terminal_gets_ascii_not_a_crash(args, here):
    right("gae", here / "gae.py")
    done = kata(*args, cwd=here, env={"PYTHONIOENCODING": "ascii", "LC_ALL": "C", "KATA_LANG": "zh"})
    no_traceback(done)
    assert done.returncode in (0, 2)
    done.stdout.encode("ascii")  # nothing but ASCII reached the terminal


# ---------------------------------------------------------------- 4. finding the learner's file


def test_a_kata_id_finds_the_file_kata_wrote_wherever_you_are(here):
    done = kata("start", "causal-mask", "--dir", "masks", cwd=here)
    assert "masks/causal_mask.py" in done.stdout and "kata check causal-mask" in done.stdout
    right("causal-mask", here / "masks" / "causal_mask.py")
    for cwd in (here, here / "masks", here.parent):
        checked = kata("check", "causal-mask", "--case", "basic", cwd=cwd)
        assert checked.returncode == 0, (cwd, checked.stdout, checked.stderr)
    (here / "elsewhere").mkdir()
    gae = kata("start", "gae", cwd=here / "elsewhere")
    assert gae.returncode == 0
    hint = kata("check", "gae", "--case", "no_dones", cwd=here)  # the stub, found from the parent directory
    assert hint.returncode == 1 and "not implemented" in hint.stdout


def test_start_on_an_existing_file_resumes_it_and_makes_it_current(here):
    kata("start", "gae", cwd=here)
    kata("start", "softmax", cwd=here)
    (here / "gae.py").write_text((here / "gae.py").read_text() + "# my work\n")
    again = kata("start", "gae", cwd=here)
    assert again.returncode == 0 and "resuming" in again.stdout and "# my work" in (here / "gae.py").read_text()
    assert "gae" in kata("hint", cwd=here).stdout  # gae is current again


# ---------------------------------------------------------------- 5. one definition of progress


def test_list_stats_next_and_interview_agree(here):
    store = Store()
    now = 1_700_000_000.0
    for event in (Event("gae", "start", now), Event("gae", "check", now + 60, verdict="pass"),
                  Event("gae", "reveal", now + 70),  # comparing after passing costs nothing
                  Event("mha", "start", now), Event("mha", "reveal", now + 10),  # looked before passing
                  Event("softmax", "start", now), Event("softmax", "replay", now + 5, verdict="pass"),  # --case only
                  Event("attention", "start", now),
                  *[Event("attention", "check", now + i, verdict="fail", detail="seed 1; watch w1") for i in range(9)],
                  Event("attention", "check", now + 20, verdict="pass", detail="seed 1; watch w1")):
        store.record(event)
    from checker.app import practice

    table = practice.progress_all(store.events())
    assert [table[k].status for k in ("gae", "mha", "softmax", "attention")] == ["mastered", "revealed", "attempted",
                                                                               "mastered"]
    assert (table["attention"].checks, table["attention"].fails) == (1, 0)  # a watch session that passed
    listed = {line.split()[0].strip("▶"): line for line in kata("list", cwd=here, columns=120).stdout.splitlines()
              if line.strip() and line.split()[0].strip("▶") in catalog.ids()}
    assert "mastered" in listed["gae"] and "revealed" in listed["mha"] and "attempted" in listed["softmax"]
    nxt = kata("next", cwd=here, columns=200).stdout
    assert nxt.startswith("Next: mha") and "gae" not in nxt.splitlines()[0]
    stats = kata("stats", cwd=here, columns=200).stdout
    assert "no failing checks yet" in stats and "mastered: passed with no help" in stats
    kata("reset", "mha", cwd=here)
    assert "looked at the reference" not in kata("next", cwd=here, columns=200).stdout  # a fresh attempt


def test_reset_all_never_rewrites_a_file_the_learner_named(here):
    kata("start", "softmax", cwd=here)
    mine = here / "softmax_naive.py"
    mine.write_text("# kata: softmax\nimport numpy as np\ndef softmax(x, dim=-1):\n    return np.exp(x)\n")
    kata("check", "softmax_naive.py", "--case", "last_axis", cwd=here)
    (here / "softmax.py").write_text("# kata: softmax\n# my own attempt\n")
    done = kata("reset", "--all", cwd=here)
    assert done.returncode == 0 and "softmax.py" in done.stdout
    assert "return np.exp(x)" in mine.read_text() and not (here / "softmax_naive.py.bak-1").exists()
    assert (here / "softmax.py.bak-1").read_text() == "# kata: softmax\n# my own attempt\n"


def test_each_attempt_starts_the_hint_ladder_at_one(here):
    store = Store()
    for _ in range(4):
        kata("hint", "gae", cwd=here)
    store.record(Event("gae", "interview", 1.0))
    assert "Hint 1/" in kata("hint", "gae", cwd=here).stdout


# ---------------------------------------------------------------- 6, 7. reports that fit and reproduce


def test_a_pass_is_one_line_and_what_to_do_next(here):
    right("gae", here / "gae.py")
    done = kata("check", "gae.py", cwd=here)
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    assert done.returncode == 0 and lines[0].split()[0] == "PASS" and len(lines) <= 5, done.stdout
    assert "An interviewer would now ask:" in done.stdout and "Next: kata start" in done.stdout


def test_reproduce_commands_reproduce(here):
    source = catalog.get("gae").reference_path.read_text().replace("1.0 - dones.to(rewards.dtype)", "torch.ones_like(rewards)")
    (here / "attempt.py").write_text(source)  # no '# kata:' line: --kata is needed to replay it
    done = kata("check", "attempt.py", "--kata", "gae", "--timeout", "20", "--seed", "5", cwd=here, columns=60)
    lines = done.stdout.splitlines()
    command = lines[lines.index("Reproduce the first failure:") + 1].strip()
    assert command.startswith("kata check attempt.py --kata gae --seed 5 --case ") and command.endswith("--timeout 20")
    replay = kata(*command.split()[1:], "--json", cwd=here)
    assert replay.returncode == 1 and '"total": 1' in replay.stdout, replay.stderr
    (here / "sub").mkdir()
    elsewhere = kata("check", "../attempt.py", "--kata", "gae", "--seed", "5", cwd=here / "sub", columns=60)
    assert "kata check ../attempt.py --kata gae" in elsewhere.stdout  # relative to where you stand, never wrapped


def test_watch_keeps_the_diagnosis_on_a_short_screen():
    from checker.app.render import report
    from checker.app.watch import fit
    from tests.golden.cases import CASES

    result = CASES["gae_done"]().result
    out = io.StringIO()
    console = Console(file=out, width=80, height=24, color_system=None)
    parts = report(result)
    console.print(fit(console, parts.top, parts.body, parts.bottom, 23))
    shown = out.getvalue().splitlines()
    assert len(shown) <= 23 and any("This looks like" in line for line in shown)
    assert any("kata check demo --seed 7" in line for line in shown) and any("more lines" in line for line in shown)


# ---------------------------------------------------------------- 8. every width, and pipes


@pytest.mark.parametrize("columns", [60, 80, 200])
def test_list_never_cuts_an_id_or_a_status(columns, here):
    out = kata("list", cwd=here, columns=columns).stdout
    for k in catalog.KATAS:
        assert re.search(rf"(^|\s){re.escape(k.id)}\s+new(\s|$)", out, re.M), (k.id, out)
    assert all(len(line) <= columns for line in out.splitlines())


def test_the_interview_status_line_fits_the_terminal():
    from checker.app.watch import status_line

    parts = ["04:59 left", "watching a_rather_long_file_name_for_a_kata.py (seed 12345)", "save to re-check",
             "h hint · r re-run · q quit"]
    for width in (40, 60, 79, 200):
        assert len(status_line(parts, width)) <= width
    assert status_line(parts, 200).endswith("q quit") and status_line(parts, 60).startswith("04:59 left")


def test_piped_output_has_no_escape_codes(here):
    right("gae", here / "gae.py")
    for args in (["list"], ["check", "gae"], ["hint", "gae"], ["stats"], ["followup", "gae"]):
        assert "\x1b[" not in kata(*args, cwd=here).stdout, args


# ---------------------------------------------------------------- 9. fast failure


@pytest.mark.parametrize("args", [["check", "casual-mask"], ["check", "nothere.py"], ["check", "gae", "--case", "x"],
                                  ["check", "gae", "--seed", "-3"], ["check", "gae", "--device", "cuda"],
                                  ["watch", "foo"], ["demo", "nope"]])
def test_usage_errors_are_found_before_torch_loads(args, here):
    right("gae", here / "gae.py")
    probe = ("import atexit, sys\n"
             "atexit.register(lambda: print('HEAVY' if 'torch' in sys.modules else 'LIGHT', file=sys.stderr))\n"
             f"sys.path.insert(0, {str(ROOT)!r}); import cli; sys.argv = ['kata'] + {args!r}; cli.main()")
    done = subprocess.run([sys.executable, "-c", probe], cwd=here, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "KATA_LANG": "en"})
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().endswith("LIGHT"), done.stderr


def test_printing_is_shown_for_the_case_it_belongs_to(tmp_path):
    from tests.conftest import run_check

    path = tmp_path / "grpo_advantage.py"
    path.write_text("# kata: grpo-advantage\nimport torch\n"
                    "def compute_group_advantages(rewards):\n"
                    "    print('groups of', rewards.shape[-1], 'in', tuple(rewards.shape))\n"
                    "    a = (rewards - rewards.mean(-1, keepdim=True)) / (rewards.std(-1, keepdim=True) + 1e-8)\n"
                    "    return a * 1.01 if rewards.dim() == 3 else a\n")
    result = run_check(path, "grpo-advantage", seed=2)
    first = result.failures()[0]
    assert result.printed_in == first.name and first.name.startswith("three_d")
    assert result.output.strip().splitlines() == ["groups of 8 in (2, 3, 8)"]  # that case's line alone
