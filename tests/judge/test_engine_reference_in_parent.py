"""On CPU the check's parent computes the reference's answers while the learner's child runs (issue 23): it must leave
nothing of the reference behind for a child forked later (kata watch's next check; its learner's child cannot walk
gc.get_objects() either, checker.judge.seal refuses it), and the answers must be the ones the reference's own child gives."""
from __future__ import annotations

import gc
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn as nn

from checker.text import catalog
from checker.judge import engine
from checker.judge import spec as spec_api
from tests.conftest import ROOT, run_check

REFERENCE = str(ROOT / "reference")


def _right(tmp_path: Path, kata_id: str) -> Path:
    kata = catalog.get(kata_id)
    path = tmp_path / kata.filename
    path.write_text(f"# kata: {kata.id}\n" + kata.reference_path.read_text())
    return path


def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def _reference_leftovers() -> list[str]:
    functions = [o for o in gc.get_objects() if hasattr(o, "__code__") and o.__code__.co_filename.startswith(REFERENCE)]
    classes = [c for c in _subclasses(nn.Module) if c.__module__.startswith("kata_reference")]
    modules = [m for m in sys.modules if m.startswith("kata_reference") or m.startswith("reference")]
    return [repr(x) for x in functions + classes + modules]


@pytest.mark.parametrize("kata_id", ["mha", "gae", "kv-cache"])
def test_the_parent_keeps_nothing_of_the_reference_and_its_state_as_it_was(tmp_path: Path, kata_id: str) -> None:
    engine._REFERENCE_CACHE.clear()
    path, modules = list(sys.path), set(sys.modules)
    rng, np_rng, dtype = torch.get_rng_state(), np.random.get_state()[1].copy(), torch.get_default_dtype()
    result = run_check(_right(tmp_path, kata_id), kata_id)
    assert result.passed, result.message
    assert _reference_leftovers() == []
    assert sys.path == path and not {m for m in set(sys.modules) - modules if "kata" in m}
    assert torch.equal(torch.get_rng_state(), rng) and (np.random.get_state()[1] == np_rng).all()
    assert torch.get_default_dtype() == dtype and torch.is_grad_enabled()


def test_the_parents_answers_are_the_reference_childs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kata = catalog.get("mha")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as a check's parent and its children run
    monkeypatch.setattr(engine, "_REFERENCE_CACHE", {})
    run = engine._Run(kata, engine.importlib.import_module(kata.spec_module), spec_api.build_cases(
        engine.importlib.import_module(kata.spec_module), 3), torch.device("cpu"), _right(tmp_path, "mha"), engine.Limits())
    here = run._reference_here()
    try:
        child = run.children.fork(run._reference)
        run.children.collect([child], engine.time.monotonic() + 120)
    finally:
        run.cleanup()
        torch.set_num_threads(threads)
    theirs = {h["i"]: (h["outcomes"], b) for h, b in child.messages if h.get("m") == "case"}
    mine = {h["i"]: (h["outcomes"], b) for h, b in here if h.get("m") == "case"}
    assert mine.keys() == theirs.keys() == set(range(len(run.cases)))
    assert all(mine[i] == theirs[i] for i in mine)


def test_a_second_check_with_the_same_seed_draws_its_cases_once_and_they_stay_as_drawn(tmp_path: Path,
                                                                                         monkeypatch: pytest.MonkeyPatch):
    """kata watch re-checks one seed: its cases are drawn once (greedy-generate's took 0.14 s before each re-check),
    and a file that writes into its inputs changes nothing of them (it runs in a child): the next check is judged
    on the cases as drawn."""
    monkeypatch.setattr(engine, "_CASES_CACHE", {})
    drawn = []
    real = spec_api.build_cases
    monkeypatch.setattr(spec_api, "build_cases", lambda spec, seed, only=None: drawn.append(seed) or real(spec, seed, only))
    right = _right(tmp_path, "gae")
    writes = tmp_path / "writes.py"
    writes.write_text(right.read_text().replace("    T = rewards.shape[0]\n", "    T = rewards.shape[0]\n    rewards.mul_(2)\n"
                                                "    rewards.div_(2)\n    values.add_(1)\n"))
    first = run_check(writes, "gae", seed=5)
    assert not first.passed and any(p.kind == "inplace" for c in first.cases for p in c.problems)
    assert run_check(right, "gae", seed=5).passed
    assert drawn == [5]
    assert run_check(right, "gae", seed=6).passed and drawn == [5, 6]


def test_a_file_following_the_first_convention_never_waits_for_the_others(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A spec with CONVENTIONS (gpt2-block's two GELU forms): the parent answers under the first convention only, and
    computes the others' answers when the file leaves it (then kept, as a watcher re-checks). In one process, as
    `kata watch` runs: the reference passes under tanh without the erf reference ever running; an erf file then
    passes under erf (the kept answers completed); a wrong file fails; the tanh file passes again on the full
    answers; and the verdicts are those of the full answers computed at once."""
    from checker.specs import gpt2_block

    monkeypatch.setattr(engine, "_REFERENCE_CACHE", {})
    erf = gpt2_block.CONVENTIONS[1]
    calls = []
    original = erf.fn

    def counted(*args, **kw):
        calls.append(1)
        return original(*args, **kw)

    monkeypatch.setattr(gpt2_block, "CONVENTIONS", (gpt2_block.CONVENTIONS[0], replace(erf, fn=counted)))
    corpus = ROOT / "tests" / "corpus" / "gpt2_block"
    right_erf = tmp_path / "erf" / "gpt2_block.py"
    right_erf.parent.mkdir()
    right_erf.write_text("# kata: gpt2-block\n" + (corpus / "right_nanogpt_erf_buffer.py").read_text())
    wrong = tmp_path / "wrong" / "gpt2_block.py"
    wrong.parent.mkdir()
    wrong.write_text("# kata: gpt2-block\n" + (corpus / "wrong_relu.py").read_text())
    tanh = _right(tmp_path, "gpt2-block")

    first = run_check(tanh, "gpt2-block", name=False, draws=4)
    assert first.passed and not calls
    (kept,) = engine._REFERENCE_CACHE.values()
    assert engine._answered_under(kept) == [0]
    second = run_check(right_erf, "gpt2-block", name=False, draws=4)
    assert second.passed and "erf" in second.convention and calls
    (kept,) = engine._REFERENCE_CACHE.values()
    assert engine._answered_under(kept) is None
    assert not run_check(wrong, "gpt2-block", name=False, draws=4).passed
    assert run_check(tanh, "gpt2-block", name=False, draws=4).passed
    engine._REFERENCE_CACHE.clear()
    assert not run_check(wrong, "gpt2-block", name=False, draws=4).passed
    engine._REFERENCE_CACHE.clear()
    again = run_check(right_erf, "gpt2-block", name=False, draws=4)
    assert again.passed and again.convention == second.convention
