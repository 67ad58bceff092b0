"""The content checks itself: every reference passes as a learner's file on many seeds, every stub
is "not implemented", every wrong answer in the corpus fails and every right one passes (naming them: test_mistakes_named.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from checker.text import catalog
from checker.judge.results import Status
from tests.conftest import CORPUS, run_check
from tests.namer import DRAWS

# The right answers kata shows after a pass (`kata solutions`) were corpus files: they are checked here too, once.
SOLUTIONS = sorted(p for k in catalog.KATAS for p in (k.content_dir / "solutions").glob("*.py"))
# A kata's right files side by side, its solutions with its corpus: a check of the kata and seed just checked reuses
# the reference's answers the engine keeps (engine._REFERENCE_CACHE, a few per process), a third of a check's CPU.
RIGHT = sorted(list(CORPUS.glob("*/right_*.py")) + SOLUTIONS,
               key=lambda p: (p.parent.parent.name if p.parent.name == "solutions" else p.parent.name, str(p)))
WRONG = sorted(CORPUS.glob("*/wrong_*.py"))
SEEDS = (11, 2024)


def _learner_copy(tmp_path: Path, kata: catalog.Kata, source: Path) -> Path:
    target = tmp_path / kata.filename
    target.write_text(f"# kata: {kata.id}\n" + source.read_text())
    return target


@pytest.mark.parametrize("kata", catalog.KATAS, ids=lambda k: k.id)
# Two seeds (three until 66 katas made these 198 whole checks two and a half minutes of the suite): every right file
# of the corpus and every solution passes on one more, and the statistical katas' false-failure rates on right
# answers are measured over many seeds in their own specs tests.
@pytest.mark.parametrize("seed", (1, 1234))
def test_reference_passes_as_a_learner_file(kata, seed, tmp_path):
    assert kata.reference_path.exists(), f"{kata.id} has no reference"
    if kata.needs == "triton":
        # A Triton kernel kata's reference is torch in float64, computed in the checker's parent (which never imports
        # triton to judge): as a learner's file it launches no kernel, and the result rule fails it. Its right files
        # and solutions (real kernels) pass on two seeds below.
        if seed != 1:
            pytest.skip("a kernel kata's torch reference is checked once, on its named cases")
        result = run_check(_learner_copy(tmp_path, kata, kata.reference_path), kata.id, seed=seed, name=False, draws=0)
        assert result.status is Status.FAIL
        assert all(p.message.startswith("your wrapper launched no kernel") for c in result.failures() for p in c.problems)
        return
    result = run_check(_learner_copy(tmp_path, kata, kata.reference_path), kata.id, seed=seed)
    assert result.status is Status.PASS, [(c.name, c.problems, c.error) for c in result.failures()][:3] or result.message
    assert len(result.cases) >= 100, f"{kata.id} runs only {len(result.cases)} cases by default"


@pytest.mark.parametrize("kata", catalog.KATAS, ids=lambda k: k.id)
def test_stub_is_not_implemented(kata, tmp_path):
    assert kata.stub_path.exists(), f"{kata.id} has no stub"
    text = kata.stub()
    assert text.startswith(f"# kata: {kata.id}\n")
    stub = tmp_path / kata.filename
    stub.write_text(text)
    result = run_check(stub, kata.id)
    assert result.status is Status.ERROR
    assert "not implemented" in result.message


def _right_ids(p: Path) -> str:
    return f"{p.parent.name}/{p.name}" if p.parent.name != "solutions" else f"{p.parent.parent.name}/solutions/{p.name}"


# Each right file on one seed, the kata's files taking the seeds in turn: every kata's right answers meet both seeds'
# random draws, and the references pass on three (above).
@pytest.mark.parametrize(("path", "seed"), [(p, SEEDS[i % len(SEEDS)]) for i, p in enumerate(RIGHT)],
                         ids=lambda v: _right_ids(v) if isinstance(v, Path) else str(v))
def test_right_answers_pass(path, seed):
    result = run_check(path, seed=seed)
    assert result.status is Status.PASS, (result.message, [(c.name, c.problems, c.error) for c in result.failures()][:2])


@pytest.mark.parametrize("path", WRONG, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_wrong_answers_fail(path):
    """Through the real engine, forks, seal and all, on one seed: its named cases and the first DRAWS draws of each
    random family, as tests/katas/test_mistakes_named.py judges the same files in process on one more seed (seed 1)
    and names them there as they declare (the engine's own namer, without its fork: the real check's naming runs on
    every drill in tests/app/test_bug_drills.py). A wrong file must fail these; every draw runs for the right ones.
    The named cases run first on their own (most wrong files fail one of them: a third of the time), the draws only
    for a file that passes them all; a case's numbers depend only on the seed, its name and its place, so the named
    cases are the same either way."""
    result = run_check(path, seed=SEEDS[0], name=False, draws=0)
    if result.status is Status.PASS:
        result = run_check(path, seed=SEEDS[0], name=False, draws=DRAWS)
    assert result.status is not Status.PASS, f"{path.name} passed but is wrong: {path.read_text().splitlines()[1]}"


def test_corpus_is_big_enough():
    for kata in catalog.KATAS:
        folder = CORPUS / kata.module
        assert folder.is_dir(), f"{kata.id} has no corpus (tests/corpus/{kata.module}/)"
        shipped = list((kata.content_dir / "solutions").glob("*.py"))
        assert 2 <= len(shipped) <= 3, f"{kata.id} ships {len(shipped)} solutions (2 to 3, content/{kata.module}/solutions/)"
        assert len(list(folder.glob("right_*.py"))) + len(shipped) >= 3, kata.id
        assert len(list(folder.glob("wrong_*.py"))) >= 6, kata.id
