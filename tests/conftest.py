"""Shared fixtures: an isolated KATA_HOME for every test, and a helper that runs the real checker."""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CORPUS = ROOT / "tests" / "corpus"

# Every Triton kernel a test process loads (a kernel kata's learner file, reference or known mistake) runs under
# Triton's interpreter, as in a check: the knob is read when @triton.jit runs, so it is set before any test imports one
# (checker.judge.kernels.enter_interpreter sets the same and installs the guards; the GPU compile check runs in a fresh
# process without it).
os.environ.update({"TRITON_INTERPRET": "1", "TRITON_F32_DEFAULT": "ieee", "TRITON_DEFAULT_FP_FUSION": "1"})


def _without_triton(items) -> None:
    """Where triton is not installed (or out of range), the kernel katas' tests are skipped: those marked `kernels`
    and every parametrised test of a kernel kata (its id or module in the test's name)."""
    from checker.judge import static
    from checker.text import catalog

    missing = static.missing_library("triton")
    if missing is None:
        return
    names = [n for k in catalog.KATAS if k.needs == "triton" for n in (k.id, k.module)]
    pattern = re.compile("|".join(re.escape(n) for n in names)) if names else None
    skip = pytest.mark.skip(reason=missing)
    for item in items:
        if item.get_closest_marker("kernels") or pattern is not None and pattern.search(item.nodeid):
            item.add_marker(skip)


def pytest_collection_modifyitems(items):
    """The tests that fork the real checker first, the ones that run in the test process last (the namer's on
    every kata, and the cross-checks, which import transformers). A check forks its test process, and fork costs
    what the process holds: ~8 ms for one that holds torch and kata, ~35 ms at the 500 MB a process reaches once
    it has named every kata's mistakes and imported transformers, then every page both touch is copied. pytest-xdist
    hands the tests out in this order, so each worker's checks run while it is small."""
    last = ("test_mistakes_named.py", "_crosscheck.py")
    items.sort(key=lambda item: item.path.name.endswith(last))  # stable: the rest keep their order
    _without_triton(items)


@pytest.fixture(autouse=True, scope="session")
def _one_torch_thread():
    """torch on one thread in every test process, as the checker's parent and children run it. pytest-xdist runs
    a process per core; each op of torch's default thread team then waits for cores the other workers hold
    (test_demo's llama-block and greedy-generate tests took 8-10 s each on two threads)."""
    import torch

    torch.set_num_threads(1)
    yield


@pytest.fixture(autouse=True)
def kata_home(tmp_path, monkeypatch):
    home = tmp_path / "kata-home"
    monkeypatch.setenv("KATA_HOME", str(home))
    return home


_BUILT: dict[tuple, list | bool] = {}  # (spec, seed, only) -> the cases, or False: cheaper to draw again


def built_cases(spec, seed: int, only: str | None = None) -> list:
    """spec.build_cases(spec, seed, only), drawn once per test process and handed out as fresh copies.

    The suite checks the same kata on the same seed hundreds of times (every corpus file, every mistake on 20
    seeds); drawing the cases was most of that work (kmeans searches for slow-converging draws: 400 draws of
    its cases took 37 of the 42 s its coverage test ran). Each caller gets its own deep copy of every case's
    inputs, so nothing a test or a learner's file does to them reaches another test; cases drawn faster than
    they copy are drawn afresh. Tests of the drawing itself call spec.build_cases."""
    import copy
    import time
    from dataclasses import replace

    key = (spec.__name__, seed, only)
    kept = _BUILT.get(key)
    if kept is None:
        started = time.process_time()
        cases = _draw()(spec, seed, only)
        if time.process_time() - started < 0.03:  # drawn faster than copied (gae: 5 ms): drawn afresh each time
            _BUILT[key] = False
            return cases
        _BUILT[key] = kept = cases
    if kept is False:
        return _draw()(spec, seed, only)
    return [replace(case, inputs=copy.deepcopy(case.inputs)) for case in kept]


_SHARED: dict[tuple, list] = {}  # (spec, seed) -> the cases, for callers that only read them


def shared_cases(spec, seed: int) -> list:
    """spec.build_cases(spec, seed), drawn once per test process and shared, not copied: for callers that only read
    the cases and copy what they hand to the code they run, as the engine does (tests/namer.py's
    judge_in_process and the demo test copy each case's arguments before a variant runs on them). Copying every
    case for every caller cost more than the checks it served: the namer's tests read a seed's cases ~2,000 times.
    The last few seeds drawn are kept (the suite asks for one kata's seeds together)."""
    key = (spec.__name__, seed)
    if key not in _SHARED:
        _SHARED[key] = _draw()(spec, seed, None)
        while len(_SHARED) > 12:
            _SHARED.pop(next(iter(_SHARED)))
    return _SHARED[key]


def _draw():
    """checker.judge.spec.build_cases itself, also while run_check has put built_cases in its place."""
    from checker.judge import spec as spec_api

    return getattr(spec_api.build_cases, "plain", spec_api.build_cases)


def sampled(cases: list, draws: int) -> list:
    """The named cases and the first `draws` of each random family (a family of one draw is kept whole)."""
    return [c for c in cases if not c.family.name.startswith("random") or c.family.draws == 1
            or int(c.name.rsplit(".", 1)[1]) < draws]


def run_check(path: Path, kata_id: str | None = None, seed: int = 1, case: str | None = None, timeout: float = 60.0,
              name: bool = True, draws: int | None = None, **kw):
    """Check a file with the real engine, as `kata check` does (its cases drawn once per process: built_cases).
    name=False leaves out the naming of the mistake (a forked child that runs every known mistake on the failing
    cases), for a test that asks for the verdict alone and has the naming of the same file tested elsewhere.
    draws: run only the named cases and the first `draws` of each random family (`sampled`), for a test that asks
    whether a wrong file fails, not on which draw."""
    from checker.text import catalog
    from checker.app import commands
    from checker.judge import engine
    from checker.judge import spec as spec_api
    from checker.judge.engine import Request, _Run, check
    from checker.app.state import Store
    from checker.judge.worker import Limits

    kata = catalog.get(kata_id) if kata_id else commands.resolve_target(str(path), None, Store()).kata
    plain, naming, every = spec_api.build_cases, _Run._name_mistakes, engine._cases
    built_cases.plain = plain  # type: ignore[attr-defined]
    spec_api.build_cases = built_cases
    if not name:
        _Run._name_mistakes = lambda run, results: results
    if draws is not None:
        engine._cases = lambda spec, seed, only: sampled(every(spec, seed, only), draws)
    try:
        return check(Request(kata, Path(path), device="cpu", seed=seed, case=case, limits=Limits(seconds=timeout, **kw)))
    finally:
        spec_api.build_cases, _Run._name_mistakes, engine._cases = plain, naming, every
