"""The namer on the training family (cross-entropy, top-p, dpo-loss, ppo-loss, lora, moe-router, adamw).

Every `wrong_*` corpus file of these katas declares the mistake it makes (`# mistake: <key>`, or
`none`), and the namer, run as the engine runs it (the examined failing cases, the further ones
while several variants explain them, then the passing ones), names exactly that on two seeds; every
known mistake, written out as a learner file by `kata demo`, is named as itself.
"""
from __future__ import annotations

import pytest

from checker.text import catalog
from checker.judge import mistakes
from checker.judge.results import Status
from tests.conftest import CORPUS
from tests.judge.test_namer import DRAWS, _one_thread, check_in_process, declared_mistake, load, spec_of, written_out  # noqa: F401

KATAS = ("cross-entropy", "top-p", "dpo-loss", "ppo-loss", "lora", "moe-router", "adamw")


def name_as_the_engine_does(kata, entry, seed: int) -> tuple[str | None, list]:
    run, results = check_in_process(kata, entry, seed, random_draws=DRAWS)
    try:
        failing = mistakes.examined_failing(run, results)
        if not failing:
            return None, results
        inplace = {r.name for r in results if any(p.kind == "inplace" for p in r.problems)}
        index = mistakes.explain(run, tuple(run.spec.MISTAKES), failing, mistakes.examined_passing(run, results),
                                 inplace, mistakes.further_failing(run, results, failing))
    finally:
        run.cleanup()
    return (None if index is None else run.spec.MISTAKES[index].key), results


WRONG = sorted(p for k in KATAS for p in (CORPUS / catalog.get(k).module).glob("wrong_*.py"))


@pytest.mark.parametrize("path", WRONG, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_wrong_corpus_is_named_as_it_declares(path):
    kata = catalog.get(path.read_text().splitlines()[0].removeprefix("# kata: ").strip())
    want = declared_mistake(path)
    if want is not None:
        assert want in {m.key for m in spec_of(kata).MISTAKES}, f"{path.name} declares an unknown mistake {want!r}"
    try:
        entry = load(path, kata)
    except Exception:  # noqa: BLE001 — a file refused before running names nothing
        assert want is None
        return
    for seed in (1, 2):
        named, results = name_as_the_engine_does(kata, entry, seed)
        assert any(r.status is not Status.PASS for r in results), f"{path.name} passes on seed {seed}"
        assert named == want, f"{path.name}: named {named!r} on seed {seed}, declares {want!r}"


PAIRS = [(k, m.key) for k in KATAS for m in spec_of(catalog.get(k)).MISTAKES]


@pytest.mark.parametrize("kata_id,key", PAIRS, ids=[f"{k}-{m}" for k, m in PAIRS])
def test_every_mistake_written_out_is_named_as_itself(kata_id, key, tmp_path):
    kata = catalog.get(kata_id)
    mistake = next(m for m in spec_of(kata).MISTAKES if m.key == key)
    entry = written_out(kata, mistake, tmp_path)
    for seed in (1, 2):
        named, results = name_as_the_engine_does(kata, entry, seed)
        assert any(r.status is Status.FAIL for r in results), f"{key} fails no case on seed {seed}"
        assert named == key, f"{kata_id}: the file written from '{key}' is named {named!r} on seed {seed}"


def test_every_mistake_has_a_label_and_a_fix_in_both_languages():
    for kata_id in KATAS:
        kata = catalog.get(kata_id)
        for lang in ("en", "zh"):
            said = kata.text(lang).mistakes
            for mistake in spec_of(kata).MISTAKES:
                assert said[mistake.key].label and said[mistake.key].fix, (kata_id, lang, mistake.key)


def test_a_negative_target_used_as_an_index_gets_a_hint():
    """-100 used as a column raises IndexError (advanced indexing) or RuntimeError (gather): no variant
    can name a file that only crashes, so the error itself says what to do."""
    from tests.conftest import run_check

    for name in ("wrong_ignore_index_as_index.py", "wrong_ignore_index_gathered.py"):
        result = run_check(CORPUS / "cross_entropy" / name, "cross-entropy", seed=3, case="some_ignored")
        assert result.status is Status.ERROR
        message = result.failures()[0].error.message
        assert "index -100 is out of bounds" in message and "must be masked before indexing" in message, message


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_top_p_draws_the_cut_of_the_first_failing_row(lang, monkeypatch):
    """"row 0: 2 tokens kept, expected 3" comes with the sorted probabilities, their running sum, both
    verdicts, and the crossing token marked; every line fits a 60-column report box."""
    from rich.cells import cell_len

    from checker.text import i18n
    from checker.specs.pictures.nucleus import nucleus_picture

    monkeypatch.setattr(i18n, "language", lambda: lang, raising=False)
    monkeypatch.setenv("KATA_LANG", lang)
    logits = [2.0, 1.0, 0.9, 0.5, -1.0, 0.0, -3.0, float("-inf")]
    # softmax sorted: 0.44, 0.16, 0.15, 0.10, 0.06, 0.02, ... ; top_p 0.7: the 3rd token crosses it
    expected = [True, True, True, False, False, False, False, False]
    got = [True, True, False, False, False, False, False, False]
    picture = nucleus_picture(logits, expected, got, 0, 0.7)
    lines = picture.split("\n")
    marked = [line for line in lines if "◀" in line and "0." in line.split("◀")[0]]
    assert len(marked) == 1 and "✗" in marked[0], picture
    assert all(cell_len(line) <= 56 for line in lines), picture
    assert "0.7" in lines[-1]


def test_top_p_report_of_the_crossing_token_dropped_shows_the_cut():
    from tests.conftest import run_check

    result = run_check(CORPUS / "top_p" / "wrong_crossing_token_dropped.py", "top-p", seed=3, case="top_p_half")
    message = result.failures()[0].problems[0].message
    assert "tokens kept, expected" in message and "◀" in message and "✗" in message, message
