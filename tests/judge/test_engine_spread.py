"""A re-check may spread the learner's cases over two children (kata watch, engine.Request.spread): its report must be
the one a single child running every case in order gives — the same verdict, the same cases judged, the same
stopping case and reason, the same printing, the same mistake named."""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from checker.text import catalog
from checker.judge import engine, runner
from checker.judge.engine import Request
from checker.judge.worker import Limits

GAE = catalog.get("gae")
CORPUS = Path(__file__).resolve().parents[1] / "corpus"
RIGHT = (CORPUS / "gae" / "right_notes_loop.py").read_text()
WHEN = {"A": "gamma == 1.0", "B": "lam == 0.0"}  # gamma_one is case 10, lam_zero case 11: next to each other


def learner(tmp_path: Path, before: str = "", inside: str = "", top: str = "") -> Path:
    """A right gae (the seed notes' loop), with `inside` run first in each call and `top` at import."""
    body = RIGHT.replace("    T = len(rewards)\n", inside + "    T = len(rewards)\n")
    path = tmp_path / "gae.py"
    path.write_text("import os, signal, sys, torch\n" + top + before + body)
    return path


FILES = {
    "right": dict(),
    "prints_and_fails_in_one_case": dict(top="print('loading the file')\n", inside=(
        "    print('call with', rewards.shape[0], 'steps')\n"
        f"    if {WHEN['B']}:\n        print('this is the lam=0 case')\n        rewards = rewards * 2\n")),
    "stub": dict(inside="    raise NotImplementedError('write compute_gae')\n"),
    "exits_in_one_case": dict(inside=f"    if {WHEN['B']}:\n        os._exit(3)\n"),
    "killed_in_the_case_before": dict(inside=f"    if {WHEN['A']}:\n        os.kill(os.getpid(), signal.SIGKILL)\n"),
    "out_of_memory_in_one_case": dict(inside=f"    if {WHEN['B']}:\n        raise MemoryError()\n"),
    "not_implemented_for_float64": dict(inside="    if values.dtype == torch.float64:\n        raise NotImplementedError('float64')\n"),
    "fails_to_import": dict(top="import a_module_that_is_nowhere\n"),
    "exits_while_loading": dict(top="os._exit(2)\n"),
}


def report(result) -> dict:
    """What the learner sees: everything but the timings."""
    seen = dataclasses.asdict(result)
    seen.pop("seconds")
    for case in seen["cases"]:
        case.pop("seconds")
    return seen


@pytest.fixture
def forks(monkeypatch):
    """How many learner's children each check forks."""
    counted: list[int] = []
    fork = runner.Children.fork

    def counting(self, body):
        if getattr(getattr(body, "func", body), "__name__", "") == "_learner":
            counted.append(1)
        return fork(self, body)

    monkeypatch.setattr(runner.Children, "fork", counting)
    return counted


def both(path: Path, forks: list[int], monkeypatch, kata=GAE, seed: int = 3, seconds: float = 60.0) -> tuple[dict, dict]:
    """The report with one learner's child (the reference's answers then kept), and the one spread over two."""
    limits = Limits(seconds=seconds)
    one = engine.check(Request(kata, path, device="cpu", seed=seed, limits=limits))
    monkeypatch.setattr(engine, "SPREAD_AFTER_SECONDS", 0.0)
    forks.clear()
    spread = engine.check(Request(kata, path, device="cpu", seed=seed, limits=limits, spread=True))
    assert len(forks) == 2, "the spread check did not run two learner's children"
    return report(one), report(spread)


@pytest.mark.parametrize("name", list(FILES))
def test_a_spread_check_reports_what_one_child_reports(tmp_path, forks, monkeypatch, name):
    one, spread = both(learner(tmp_path, **FILES[name]), forks, monkeypatch)
    assert spread == one


def test_the_reports_say_what_each_learner_did(tmp_path, forks, monkeypatch):
    """The comparison above is not between two empty reports: each file's report says its own fault."""
    said = {}
    for name, parts in FILES.items():
        _, spread = both(learner(tmp_path, **parts), forks, monkeypatch)
        said[name] = spread
    assert said["right"]["status"] == "pass" and len(said["right"]["cases"]) == said["right"]["planned"] > 100
    printed = said["prints_and_fails_in_one_case"]
    assert printed["status"] == "fail" and printed["printed_in"] == "lam_zero"
    assert printed["output"].startswith("call with") and "this is the lam=0 case" in printed["output"]
    assert "loading the file" not in printed["output"] and printed["output"].count("call with") == 1
    assert "not implemented yet" in said["stub"]["message"]
    exits = said["exits_in_one_case"]
    assert "in case lam_zero" in exits["message"] and [c["name"] for c in exits["cases"]][-1] == "lam_zero"
    assert len(exits["cases"]) == 12  # cases 0..11: what one child would have run, not the other child's later ones
    killed = said["killed_in_the_case_before"]
    assert "in case gamma_one" in killed["message"] and "SIGKILL" in killed["message"] and len(killed["cases"]) == 11
    memory = said["out_of_memory_in_one_case"]
    assert "Stopped at case lam_zero" in memory["message"] and len(memory["cases"]) == 12
    floats = said["not_implemented_for_float64"]
    assert floats["status"] == "error" and len(floats["cases"]) == floats["planned"]
    assert "failed while loading" in said["fails_to_import"]["message"]
    assert "ended the process while loading" in said["exits_while_loading"]["message"]


def test_a_spread_check_times_out_in_the_case_one_child_would(tmp_path, forks, monkeypatch):
    path = learner(tmp_path, inside=f"    while {WHEN['B']}:\n        pass\n")
    one, spread = both(path, forks, monkeypatch, seconds=3.0)
    assert spread == one and "Timed out after 3 s in case lam_zero" in spread["message"]


@pytest.mark.parametrize("kata_id, file", [("kv-cache", "wrong_new_keys_first.py"), ("kv-cache", "right_preallocated_copy.py"),
                                           ("llama-block", "wrong_rope_on_v.py"), ("llama-block", "right_hf_style.py"),
                                           ("gae", "wrong_done_one_step_late.py")])
def test_corpus_files_get_the_same_report_and_mistake_spread(kata_id, file, forks, monkeypatch):
    path = CORPUS / catalog.get(kata_id).module / file
    one, spread = both(path, forks, monkeypatch, kata=catalog.get(kata_id), seed=5)
    assert spread == one
    assert (spread["status"] == "pass") == file.startswith("right_")
    if file.startswith("wrong_"):
        assert any(c["mistake"] for c in spread["cases"])


def test_only_a_slow_learner_is_spread_and_only_when_the_reference_is_kept(tmp_path, forks):
    path = learner(tmp_path, inside="    __import__('time').sleep(0.004)\n")  # both children surely get cases
    engine._LEARNER_SECONDS.clear()
    engine._REFERENCE_CACHE.clear()
    forks.clear()
    engine.check(Request(GAE, path, device="cpu", seed=11, spread=True))
    assert len(forks) == 1  # the reference's answers are computed here meanwhile: the other core is busy
    (key, took), = engine._LEARNER_SECONDS.items()
    engine._LEARNER_SECONDS[key] = engine.SPREAD_AFTER_SECONDS / 2
    forks.clear()
    engine.check(Request(GAE, path, device="cpu", seed=11, spread=True))
    assert len(forks) == 1  # quick code: a second child would cost more than it saves
    engine._LEARNER_SECONDS[key] = engine.SPREAD_AFTER_SECONDS
    forks.clear()
    engine.check(Request(GAE, path, device="cpu", seed=11, spread=False))
    assert len(forks) == 1  # only a caller that keeps checking asks for it
    forks.clear()
    shares = []
    merge = engine._Run._merged
    engine._Run._merged = lambda run, streams: shares.append([len(s.started) for s in streams]) or merge(run, streams)
    try:
        assert engine.check(Request(GAE, path, device="cpu", seed=11, spread=True)).passed
    finally:
        engine._Run._merged = merge
    assert len(forks) == 2
    (first, second), = shares  # each child took cases from the queue until none was left
    assert first + second == len(engine._cases(sys.modules[GAE.spec_module], 11, None)) and first and second
