"""The house has floors: the import-linter contracts in pyproject.toml hold (the app above the specs, the specs
above the judge, the judge above the text; the judge's inside reached only through its surface; no import
circle), they break on an import against them, and the floors the light commands stand on import neither torch
nor numpy when they run."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

LINT = Path(sys.executable).with_name("lint-imports")


def _lint(where: Path) -> subprocess.CompletedProcess:
    """lint-imports as a contributor runs it, in `where` (a checkout: its checker/ and pyproject.toml)."""
    return subprocess.run([str(LINT), "--no-cache"], cwd=where, capture_output=True, text=True, timeout=120)


def test_the_import_contracts_hold():
    done = _lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 kept, 0 broken" in done.stdout, done.stdout


# (the module that gets the import, the import, the contract it breaks, what lint-imports says)
WRONG = {
    "the judge imports the app": (
        "checker/judge/engine.py", "from checker.app import state", "checker's layers",
        "checker.judge.engine -> checker.app.state"),
    "the text imports the judge": (
        "checker/text/catalog.py", "from checker.judge import results", "checker's layers",
        "checker.text.catalog -> checker.judge.results"),
    "a spec imports the app": (
        "checker/specs/gae.py", "from checker.app.render import values", "checker's layers",
        "checker.specs.gae -> checker.app.render.values"),
    "the app reaches into the judge": (
        "checker/app/views.py", "from checker.judge.engine import Request", "surface",
        "checker.app.views -> checker.judge.engine"),
    "an import circle inside the app": (
        "checker/app/state.py", "from checker.app import views", "imports it back",
        "state"),
    "a module nobody placed": (
        "checker/extra.py", "", "checker's layers", "checker.extra"),
}


@pytest.mark.parametrize("wrong", list(WRONG))
def test_an_import_against_the_floors_breaks_a_contract(wrong, tmp_path):
    module, line, contract, said = WRONG[wrong]
    shutil.copytree(ROOT / "checker", tmp_path / "checker", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    target = tmp_path / module
    with target.open("a", encoding="utf-8") as f:
        f.write(f"\n\ndef _added():\n    {line or 'pass'}  # lazy, inside a function: it counts too\n")
    done = _lint(tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    broken = done.stdout.split("Broken contracts", 1)[-1]
    assert contract in broken and said in broken, done.stdout


@pytest.mark.parametrize("module", ["checker.text.catalog", "checker.app.commands", "checker.app.views",
                                    "checker.app.practice", "checker.app.drills", "checker.app.drilling",
                                    "checker.text.content", "checker.text.i18n", "checker.judge.static",
                                    "checker.judge", "checker.judge.results", "checker.app.state", "cli"])
def test_the_light_floors_import_neither_torch_nor_numpy(module):
    probe = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); import {module}; "
             "heavy = {'torch', 'numpy'} & set(sys.modules); print(sorted(heavy))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
