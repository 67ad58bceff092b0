"""The starter notebooks (content/notebooks/kata.ipynb and kata.zh.ipynb) run top to bottom under nbclient on a
real kernel, as a learner's "Run all" does, and are what content/notebooks/make.py writes.

The install cell finds kata already installed (this venv) and installs nothing; every other cell runs as shipped:
the stub, a wrong first try and its report, a hint aimed at it, the fix passing, the follow-ups, code over several
cells checked with the cells it took named, a bug drill, the history."""
from __future__ import annotations

import importlib.util
import re
import sys

import nbformat
import pytest
from jupyter_client import KernelManager
from jupyter_client.kernelspec import KernelSpec
from nbclient import NotebookClient

from tests.conftest import ROOT

NOTEBOOKS = ROOT / "content" / "notebooks"


def _make():
    spec = importlib.util.spec_from_file_location("notebooks_make", NOTEBOOKS / "make.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _text(cell) -> str:
    parts = []
    for out in cell.get("outputs", []):
        if out["output_type"] == "stream":
            parts.append(out["text"])
        elif out["output_type"] in ("display_data", "execute_result"):
            parts.append(out.get("data", {}).get("text/plain", ""))
        elif out["output_type"] == "error":
            parts.append(f"{out['ename']}: {out['evalue']}")
    return re.sub(r"\x1b\[[0-9;]*m", "", "".join(parts))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_notebook_is_what_make_writes(lang):
    make = _make()
    assert make.path(lang).read_text(encoding="utf-8") == make.written(lang), \
        "run `python content/notebooks/make.py` after changing a cell"
    nbformat.validate(nbformat.reads(make.written(lang), as_version=4))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_starter_notebook_runs_top_to_bottom(lang, tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("KATA_HOME", str(home))
    monkeypatch.setenv("KATA_LANG", "en")  # the zh notebook switches itself with kata.lang("zh")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    nb = nbformat.read(_make().path(lang), as_version=4)
    km = KernelManager()
    km._kernel_spec = KernelSpec(argv=[sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                                 display_name="kata tests", language="python")
    client = NotebookClient(nb, km=km, timeout=180, resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError on the first cell that errors: every cell must run clean

    code = [c for c in nb.cells if c.cell_type == "code"]
    out = {c.source.splitlines()[0]: _text(c) for c in code}
    assert _text(code[0]) == ""  # kata is installed: the install cell installs nothing and says nothing
    passed, failed = {"en": ("PASS", "FAIL"), "zh": ("通过", "未通过")}[lang]
    wrong = out["%%kata gae --seed 1"]
    assert failed in wrong and "kata.check(\"gae\", seed=1, case=" in wrong  # the reproduce line, as a call
    right = next(text for first, text in out.items() if first == "%%kata gae")
    assert passed in right and failed not in right
    took = out['kata.check("gae")']
    said = {"en": r"kata\.check took normalised from cell \[\d+\], compute_gae from cell \[\d+\]",
            "zh": r"kata\.check 取用了 单元格 \[\d+\] 的 normalised，单元格 \[\d+\] 的 compute_gae"}[lang]
    assert re.search(said, took), took
    assert passed in took and "CheckResult(" not in took  # the report, not the returned object's repr
    # A Jupyter frontend takes the drill as a new cell (set_next_input); nbclient drops it, as it drops every payload
    drill = {"en": r"A whole gae with one bug in it.*(It is in a new cell|Copy it into a new cell)",
             "zh": r"一份完整的 gae，其中藏着一个 bug.*(它在下面新的单元格里|把它复制到一个新单元格)"}[lang]
    assert re.search(drill, out['kata.bug("gae")'].replace("\n", "")), out['kata.bug("gae")']
    assert (home / "notebook" / "gae.py").is_file() and (home / "notebook" / "gae_bug.py").is_file()
    assert re.search(r"^\s*(RL|强化学习)\s+\d+\s+1\s", out["kata.stats()"], re.M), out["kata.stats()"]  # gae passed
