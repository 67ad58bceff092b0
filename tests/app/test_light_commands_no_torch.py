"""Light commands and usage errors never import torch (issue 23: they must answer within 1.5× `import typer, rich`).

Each language runs every command in one fresh interpreter, through `cli.main` as the console script does. A
check of sys.modules after each command names the first command that left torch (or numpy) imported, whichever
module pulled it in (a spec, checker.judge.engine, …); later commands would find it already there, so the first culprit
is what a failure names. One interpreter per language keeps this to two torch-free starts.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Runs in the child: argv lists come as JSON on stdin; prints JSON {"heavy": [[command, module], ...], "codes": [...]}.
PROBE = r"""
import json, sys
commands = json.loads(sys.stdin.read())
HEAVY = ("torch", "numpy", "markdown_it", "pygments")  # typer's markdown help and pretty tracebacks, which kata never uses (cli.py)
heavy, codes = [], []
import cli
for argv in commands:
    try:
        cli.main(list(argv))
    except SystemExit as exit:
        codes.append(exit.code)
    for name in HEAVY:
        if name in sys.modules and name not in {m for _, m in heavy}:
            heavy.append([" ".join(argv) or "(kata alone)", name])
sys.__stdout__.write("\n@@" + json.dumps({"heavy": heavy, "codes": codes}) + "\n")
"""


def _run(commands: list[list[str]], tmp_path: Path, lang: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KATA_HOME": str(tmp_path / "home"), "KATA_LANG": lang,
           "COLUMNS": "100", "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", PROBE], input=json.dumps(commands), cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert "@@" in done.stdout, done.stderr[-3000:]
    return json.loads(done.stdout.rsplit("@@", 1)[1])


def _subcommands() -> list[str]:
    import click
    import typer

    import cli

    group = typer.main.get_command(cli.app)
    assert isinstance(group, click.Group)
    return sorted(group.commands)


def _light(tmp_path: Path) -> list[list[str]]:
    (tmp_path / "sub").mkdir(exist_ok=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    (tmp_path / "empty.py").write_text("")
    (tmp_path / "bad.py").write_text("# kata: gae\ndef compute_gae(rewards, values:\n    return 1\n")
    (tmp_path / "gae.py").write_text("# kata: gae\ndef compute_gae(rewards, values, dones, gamma, lam):\n    raise NotImplementedError\n")
    commands = [[], ["--help"], ["list"], ["list", "--topic", "rl"], ["start", "gae", "--dir", "sub"], ["hint", "gae"],
                ["reveal", "gae", "--yes"], ["followup", "gae"], ["cases", "gae"], ["stats"], ["next"], ["config"],
                ["config", "lang"]]
    commands += [[name, "--help"] for name in _subcommands()]
    if "bug" in _subcommands():
        commands.append(["bug", "--list"])
    return commands


def _errors(tmp_path: Path) -> list[list[str]]:
    return [["check", "casual-mask"], ["check", "nothere.py"], ["check", "sub"], ["check", "gae", "--nope"],
            ["check", "gae.py", "--seed", "-1"], ["check", "gae.py", "--seed", "x"], ["check", "gae.py", "--case", "nope"],
            ["check", "gae.py", "--device", "tpu"], ["check", "gae.py", "--device", "cuda"], ["check", "gae.py", "--timeout", "0"],
            ["watch", "foo"], ["watch", "nothere.py"], ["demo", "nope"], ["hint", "nope"], ["start", "nope"],
            ["reveal", "nope"], ["followup", "nope"], ["cases", "nope"], ["reset", "nope"], ["list", "--topic", "nope"],
            ["config", "lang", "fr"], ["nosuchcommand"], ["check", "gae.py", "--kata", "nope"]]


def _source_errors() -> list[list[str]]:
    return [["check", "bad.py"], ["check", "empty.py"], ["check", "empty.py", "--kata", "gae"]]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_light_commands_and_usage_errors_never_import_torch(tmp_path: Path, lang: str) -> None:
    commands = _light(tmp_path) + _errors(tmp_path)
    found = _run(commands, tmp_path, lang)
    assert found["heavy"] == [], f"these commands imported torch, numpy, markdown-it or pygments: {found['heavy']}"
    codes = dict(zip((" ".join(c) for c in commands), found["codes"]))
    assert len(codes) == len(commands)
    # the errors really are errors (and the light commands really ran): else this proves nothing
    assert all(codes[" ".join(c)] not in (0, None) for c in _errors(tmp_path)), codes
    assert all(codes[" ".join(c)] in (0, None) for c in _light(tmp_path)[:12]), codes


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_file_that_cannot_run_is_judged_before_torch_loads(tmp_path: Path, lang: str) -> None:
    _light(tmp_path)
    commands = _source_errors()
    found = _run(commands, tmp_path, lang)
    assert all(code not in (0, None) for code in found["codes"]), found
    assert found["heavy"] == [], f"these commands imported torch, numpy, markdown-it or pygments: {found['heavy']}"


STAND_INS = r"""
import sys
import cli
assert type(sys.modules["rich.markdown"]).__name__ == "_StandIn" and type(sys.modules["rich.traceback"]).__name__ == "_StandIn"
import typer.main  # typer holds the stand-in classes; used, each is the real thing
try:
    1 / 0
except ZeroDivisionError as exc:
    tb = typer.main.Traceback.from_exception(type(exc), exc, exc.__traceback__)
import rich.traceback
from rich.markdown import Markdown
assert isinstance(tb, rich.traceback.Traceback), type(tb)
assert type(Markdown("# hi")).__module__ == "rich.markdown" and "pygments" in sys.modules
from rich.console import Console
console = Console(record=True, width=60)
console.print(tb)
console.print(Markdown("**bold** text"))
print("@@" + console.export_text())
"""


def test_the_modules_kata_defers_are_the_real_ones_once_used() -> None:
    """typer's pretty tracebacks and markdown help stay usable: a stand-in class, used, imports its module."""
    done = subprocess.run([sys.executable, "-c", STAND_INS], env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    shown = done.stdout.split("@@", 1)[1]
    assert "ZeroDivisionError" in shown and "bold text" in shown, shown
