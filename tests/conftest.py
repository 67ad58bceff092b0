"""Shared fixtures: an isolated KATA_HOME for every test, and a helper that runs the real checker."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CORPUS = ROOT / "tests" / "corpus"


@pytest.fixture(autouse=True)
def kata_home(tmp_path, monkeypatch):
    home = tmp_path / "kata-home"
    monkeypatch.setenv("KATA_HOME", str(home))
    return home


def run_check(path: Path, kata_id: str | None = None, seed: int = 1, case: str | None = None, timeout: float = 60.0, **kw):
    """Check a file with the real engine, as `kata check` does."""
    from checker import catalog, commands
    from checker.engine import Request, check
    from checker.state import Store
    from checker.worker import Limits

    kata = catalog.get(kata_id) if kata_id else commands.resolve_target(str(path), None, Store()).kata
    return check(Request(kata, Path(path), device="cpu", seed=seed, case=case, limits=Limits(seconds=timeout, **kw)))
