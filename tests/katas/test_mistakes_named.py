"""Every kata's known mistakes, wrong files and drills are named as they are, by the namer the check runs.

For every kata: each known mistake has a label and a fix in both languages; written out as a learner's file
(`kata demo`), it computes what the variant computes, fails and is named as itself (on seed 1 or 2, in turn); every wrong file of the corpus and every drill
fails and is named as it declares (`# mistake: <key>`, `none` when no single variant models it; a drill is
its own key) on one seed: a wrong file on seed 1 (it fails through the real engine on seed 11 too, in
tests/katas/test_corpus.py), a drill on seed 2 (it is named through the real engine on seed 1, in
tests/app/test_bug_drills.py); each rule a known mistake breaks is tested by a named case, on each of 10 seeds.
All in process (tests/namer.py: the engine's own `mistakes.choose`, without its fork).
"""
from __future__ import annotations

import pytest

from checker.judge.results import Status
from checker.text import catalog
from tests.conftest import CORPUS
from tests.namer import (DRAWS, declared_mistake, first_failing_named_case, kata_of, load, name_in_process, name_written_out,
                          refused, spec_of, written_out)

# sample-token's statistical cases draw thousands of tokens each: fewer random draws keep its checks as quick. A Triton
# kernel kata's draws are its largest launches under the interpreter (80 % of a check), and its known mistakes each
# fail a named case on every seed (tests/katas/kernels/*_specs.py): two draws of each.
DRAWS_OF = {"sample-token": 6, "sinusoidal-pe": 6} | {k.id: 2 for k in catalog.KATAS if k.needs == "triton"}
WRITTEN_SEEDS = (1, 2)


def _pairs() -> list[tuple[str, int, str]]:
    return [(k.id, i, m.key) for k in catalog.KATAS for i, m in enumerate(spec_of(k).MISTAKES)]


@pytest.mark.parametrize("kata", catalog.KATAS, ids=lambda k: k.id)
def test_every_mistake_has_a_label_and_a_fix_in_both_languages(kata):
    for lang in ("en", "zh"):
        said = kata.text(lang).mistakes
        for key in {m.key for m in spec_of(kata).MISTAKES}:
            assert said[key].label and said[key].fix, (kata.id, lang, key)


@pytest.mark.parametrize("kata_id,index,key", _pairs(), ids=lambda v: str(v))
def test_every_mistake_written_out_is_named_as_itself(kata_id, index, key, tmp_path):
    kata = catalog.get(kata_id)
    mistake = spec_of(kata).MISTAKES[index]
    entry = written_out(kata, mistake, tmp_path)
    # One seed a mistake, seeds 1 and 2 in turn down a kata's list: every kata's namer meets both seeds, and the
    # rules each mistake breaks are failed by a named case on 10 seeds (the last test of this file).
    seed = WRITTEN_SEEDS[index % len(WRITTEN_SEEDS)]  # a variant that raises where it is wrong is named by its crashes
    named, results, differ = name_written_out(kata, entry, mistake.fn, seed, random_draws=DRAWS_OF.get(kata_id, DRAWS))
    # `kata demo` writes the mistake out as a file that computes exactly what the variant computes: compared on every
    # case the naming ran the variant on, and at least the run's first twelve (a dropped helper or switch differs there)
    assert not differ, f"{kata_id}: '{key}' written out is not the variant: {differ[:3]}"
    assert any(r.status is not Status.PASS for r in results), f"{key} passes every case of seed {seed}"
    assert named == key, f"{kata_id}: the file written from '{key}' is named {named!r} on seed {seed}"


WRONG = sorted(CORPUS.glob("*/wrong_*.py")) + sorted(p for k in catalog.KATAS for p in (k.content_dir / "bugs").glob("*.py"))


@pytest.mark.parametrize("path", WRONG, ids=lambda p: "/".join(p.parts[-3:]) if p.parent.name == "bugs" else f"{p.parent.name}/{p.stem}")
def test_every_wrong_file_and_drill_fails_and_is_named_as_it_declares(path):
    kata = kata_of(path)
    want = declared_mistake(path)
    if want is not None:
        assert want in {m.key for m in spec_of(kata).MISTAKES}, f"{path.name} declares an unknown mistake {want!r}"
    try:
        entry = load(path, kata)
    except Exception:  # noqa: BLE001 — a file that does not even load (or is refused before running) names nothing
        assert want is None
        return
    # A drill is named through the real engine on seed 1 (tests/app/test_bug_drills.py): here on seed 2. A wrong
    # file fails through the real engine on seed 11 (tests/katas/test_corpus.py): here on seed 1.
    for seed in (2,) if path.parent.name == "bugs" else (1,):
        named, results = name_in_process(kata, entry, seed, random_draws=DRAWS_OF.get(kata.id, DRAWS))
        # A file the check refuses for a banned call never runs there (tests/katas/test_corpus.py): what it
        # computes, the library's answer, may be right, and its declared mistake is that computation's.
        if not refused(path, kata):
            assert any(r.status is not Status.PASS for r in results), f"{path.name} passes every case of seed {seed}"
        assert named == want, f"{path.name}: named {named!r} on seed {seed}, declares {want!r}"


COVERED = ("attention", "causal-mask", "offset-causal-mask", "sliding-window-mask", "mha", "cross-attention", "softmax",
           "mc-advantage", "gae", "gae-batched", "grpo-advantage", "grpo-loss", "loss-agg", "kl-estimators", "dapo-loss",
           "gspo-loss", "rloo-loss", "clip-loss", "int8-quant", "logistic-regression", "roc-auc", "kmeans", "mlp-backprop",
           "conv2d", "nms", "bpe", "greedy-generate", "speculative-decoding")


@pytest.mark.parametrize("kata_id", COVERED)
def test_every_known_mistake_fails_a_named_case_on_every_seed(kata_id):
    """Each rule a known mistake breaks is tested by a named family, not left to the random draws."""
    kata = catalog.get(kata_id)
    missed = [(m.key, seed) for m in spec_of(kata).MISTAKES for seed in range(10)
              if first_failing_named_case(kata, m.fn, seed) is None]
    assert not missed, f"{kata_id}: passes every named case: {missed[:10]}"


@pytest.mark.parametrize("kata_id", ["gae", "logistic-regression", "dropout"])
def test_a_written_out_file_that_is_not_its_variant_is_caught(kata_id):
    """The comparison above is not vacuous: a file that computes another mistake's function, or the right one, differs
    from the variant on the cases compared."""
    kata = catalog.get(kata_id)
    mistakes = spec_of(kata).MISTAKES
    first, second = mistakes[0], next(m for m in mistakes[1:] if m.key != mistakes[0].key)
    for stand_in in (second.fn, load(kata.reference_path, kata)):
        _, _, differ = name_written_out(kata, stand_in, first.fn, 1, random_draws=2)
        assert differ, f"{kata_id}: a file computing something else passed as '{first.key}' written out"
