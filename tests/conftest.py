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


_BUILT: dict[tuple, list] = {}


def built_cases(spec, seed: int, only: str | None = None) -> list:
    """spec.build_cases(spec, seed, only), drawn once per test process and handed out as fresh copies.

    The suite checks the same kata on the same seed hundreds of times (every corpus file, every mistake on 20
    seeds); drawing the cases was most of that work (kmeans searches for slow-converging draws: 400 draws of
    its cases took 37 of the 42 s its coverage test ran). Each caller gets its own deep copy of every case's
    inputs, so nothing a test or a learner's file does to them reaches another test. Tests of the drawing
    itself call spec.build_cases."""
    import copy
    from dataclasses import replace

    key = (spec.__name__, seed, only)
    if key not in _BUILT:
        _BUILT[key] = _draw()(spec, seed, only)
    return [replace(case, inputs=copy.deepcopy(case.inputs)) for case in _BUILT[key]]


def _draw():
    """checker.spec.build_cases itself, also while run_check has put built_cases in its place."""
    from checker import spec as spec_api

    return getattr(spec_api.build_cases, "plain", spec_api.build_cases)


def run_check(path: Path, kata_id: str | None = None, seed: int = 1, case: str | None = None, timeout: float = 60.0, **kw):
    """Check a file with the real engine, as `kata check` does (its cases drawn once per process: built_cases)."""
    from checker import catalog, commands
    from checker import spec as spec_api
    from checker.engine import Request, check
    from checker.state import Store
    from checker.worker import Limits

    kata = catalog.get(kata_id) if kata_id else commands.resolve_target(str(path), None, Store()).kata
    plain = spec_api.build_cases
    built_cases.plain = plain  # type: ignore[attr-defined]
    spec_api.build_cases = built_cases
    try:
        return check(Request(kata, Path(path), device="cpu", seed=seed, case=case, limits=Limits(seconds=timeout, **kw)))
    finally:
        spec_api.build_cases = plain
