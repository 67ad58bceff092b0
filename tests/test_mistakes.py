"""The mistake namer names a mistake only when it is the right one.

Every known mistake, written out as a learner file, is named with its own label on several seeds;
files with two mistakes at once, or with a mistake no variant models, get no name or the right
one, never a wrong one; and over the whole wrong corpus every name given is the file's own
(`# mistake: <key>` in the file, or `# mistake: none` when no single variant models it).

Most of it runs in process (`check_in_process` below judges every case as the engine does, then
asks the namer); a few files go through the real engine, forks and all.
"""
from __future__ import annotations

import copy
import functools
import importlib
import re
import time
from pathlib import Path

import pytest
import torch

from checker import catalog, demo, mistakes
from checker import spec as spec_api
from checker.engine import _Run
from checker.results import CaseResult, Problem, Status
from checker.worker import Limits, load_entry, reset_global_state
from tests.conftest import CORPUS, run_check

CPU = torch.device("cpu")
KATAS = ("attention", "causal-mask", "offset-causal-mask", "sliding-window-mask", "mha", "cross-attention", "softmax",
         "mc-advantage", "gae", "gae-batched", "grpo-advantage", "grpo-loss")


@pytest.fixture(autouse=True)
def _one_thread():
    """Tiny tensors: threads only add contention (the checker's children run on one thread too)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def spec_of(kata):
    return importlib.import_module(kata.spec_module)


@functools.lru_cache(maxsize=None)
def reference_of(kata):
    return load_entry(kata.reference_path, kata.entry, f"test_namer_reference_{kata.module}")


def _inplace(case, outcome) -> list[Problem]:
    return [Problem("inplace", f"input {name}", "modified in place") for name, before in case.inputs.args.items()
            if mistakes._changed(before, outcome.args.get(name))]


def check_in_process(kata, entry, seed: int, only_named: bool = False):
    """(run, results) as the engine would judge `entry` on every case of `seed`, without forking."""
    spec = spec_of(kata)
    cases = spec_api.build_cases(spec, seed)
    if only_named:
        cases = [c for c in cases if not c.family.name.startswith("random")]
    run = _Run(kata, spec, cases, CPU, Path("learner.py"), Limits())
    call = getattr(spec, "call", spec_api.call)
    hook = getattr(spec, "expected", None)
    results = []
    for i, case in enumerate(cases):
        device = CPU
        reset_global_state(case.seed ^ i)
        if hook is not None:
            alternatives = hook(kata, reference_of(kata), copy.deepcopy(case.inputs), device)
        else:
            alternatives = [call(kata, reference_of(kata), copy.deepcopy(case.inputs), device)]
        alternatives = [mistakes._roundtrip(a) for a in alternatives]
        reset_global_state(case.seed ^ i)
        inputs = copy.copy(case.inputs)
        inputs.args = copy.deepcopy(case.inputs.args)
        try:
            outcome = call(kata, entry, inputs, device, track_device=case.family.track_device)
        except Exception:  # noqa: BLE001 — the learner's error: the case is an ERROR, never examined
            results.append(CaseResult(case.name, case.family.name, "", Status.ERROR))
            continue
        got = mistakes._roundtrip(outcome)
        run.expected[case.name], run.got[case.name] = alternatives, got
        problems = run._compare(case, alternatives, got) + _inplace(case, outcome)
        results.append(CaseResult(case.name, case.family.name, "", Status.FAIL if problems else Status.PASS,
                                  tuple(problems)))
    return run, results


def name_in_process(kata, entry, seed: int) -> tuple[str | None, list[CaseResult]]:
    """The key the namer gives `entry` on `seed` (None: no name), and the results it judged."""
    run, results = check_in_process(kata, entry, seed)
    spec = run.spec
    failing = mistakes.examined_failing(run, results)
    try:
        if not failing:
            return None, results
        inplace = {r.name for r in results if any(p.kind == "inplace" for p in r.problems)}
        index = mistakes.explain(run, tuple(spec.MISTAKES), failing, mistakes.examined_passing(run, results), inplace)
    finally:
        run.cleanup()
    return (None if index is None else spec.MISTAKES[index].key), results


def load(path: Path, kata):
    return load_entry(path, kata.entry, f"test_namer_{kata.module}_{path.stem}_{abs(hash(str(path)))}")


def written_out(kata, mistake, tmp_path: Path):
    path = tmp_path / f"{kata.module}_{mistake.key}.py"
    path.write_text(demo.variant_source(kata, mistake))
    return load(path, kata)


def declared_mistake(path: Path) -> str | None:
    """The `# mistake: <key>` line of a corpus file ("none": no single variant models it)."""
    found = re.search(r"^# mistake: (\S+)\s*$", path.read_text(), re.MULTILINE)
    assert found, f"{path}: no '# mistake: <key>' line (write '# mistake: none' when no variant models it)"
    return None if found.group(1) == "none" else found.group(1)
