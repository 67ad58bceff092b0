"""beam-search against transformers (KATAS-sequence.md, "Agreement with libraries").

The refill convention (the reference file) and refill run to max_new_tokens (the spec's `refill_to_max`
convention) against transformers' `generate(num_beams=k, do_sample=False, early_stopping=True / "never",
use_cache=False)` on one prompt, with a stand-in model whose next-token logits are the case model's log-prob rows
(checker/specs/_beam.py; transformers' log_softmax of a normalised row is the row, up to rounding). The draws are
the spec's own random draws (V 6–15, k 2–5, L 1–4, 1–12 new tokens, length_penalty 1, 0, 2, −0.5, 0.7, 1.3, r 1…k,
eos or none, float32 and float64 rows), each already ≥ 1e-4 from every tie under the five conventions;
pad_token_id is set to V − 1 (transformers pads with eos when pad_token_id is 0: decision 5).

Measured on this machine (torch 2.13 CPU, transformers 5.24), all 74 random draws of seed 3 (the test runs the
first DRAWS = 20 of them: transformers' generate costs ~0.15 s a call here, and the suite's budget is tight):
    refill (the reference file) vs early_stopping=True:        sequences identical 74/74
    refill run to T (`refill_to_max`) vs early_stopping="never": sequences identical 74/74
    `sequences_scores` max abs difference 1.9e-06 over both (transformers computes in the rows' dtype, float32 in
    most draws)
"""
from __future__ import annotations

import pytest
import torch

from checker.text import catalog
from tests.spec_support import reference_of
from tests.katas.inference.hf_stand_in import stand_in

transformers = None
DRAWS = 20  # of the spec's 74 random draws (seed 3); all 74 measured, as the docstring says


@pytest.fixture(autouse=True, scope="module")
def _libraries():
    """transformers, imported when this module's first test runs (see test_generate_crosscheck.py)."""
    global transformers
    transformers = pytest.importorskip("transformers", reason="the cross-check needs transformers (the [crosscheck] extra)")


@pytest.fixture(autouse=True)
def _one_thread():
    """Tiny tensors: with a thread per core, each of transformers' small ops waits on a team of threads (a log_softmax
    of a [k, V] row took 34 ms instead of microseconds on a loaded machine)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _stand_in(model):
    return stand_in(transformers, model)


def _cases():
    from checker.judge.spec import build_cases
    from checker.specs import beam_search as spec

    return [c for c in build_cases(spec, 3) if c.name.startswith("random.")][:DRAWS]


def _hf(args, early_stopping):
    model = args["log_prob_fn"]
    lm = _stand_in(model)
    ids = args["input_ids"][None]
    with torch.no_grad():
        out = lm.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False, num_beams=args["num_beams"],
                          max_new_tokens=args["max_new_tokens"], min_new_tokens=0,
                          eos_token_id=args["eos_token_id"], pad_token_id=args["pad_token_id"],
                          length_penalty=args["length_penalty"], early_stopping=early_stopping,
                          num_return_sequences=args["num_return_sequences"], use_cache=False,
                          output_scores=True, return_dict_in_generate=True, top_k=None, top_p=None,
                          temperature=None)
    return out.sequences, out.sequences_scores


def test_refill_and_refill_to_max_match_transformers_generate():
    from checker.specs import beam_search as spec

    reference = reference_of(catalog.get("beam-search"))
    refill_to_max = spec._variant("refill_to_max")
    same = {True: 0, "never": 0}
    worst = 0.0
    cases = _cases()
    for case in cases:
        args = dict(case.inputs.args)
        args["pad_token_id"] = args["log_prob_fn"].vocab - 1
        fn = args["log_prob_fn"].build(torch.device("cpu"))
        rest = {k: v for k, v in args.items() if k != "log_prob_fn"}
        for early, mine in ((True, reference(fn, **rest)), ("never", refill_to_max(fn, **rest))):
            sequences, scores = _hf(args, early)
            assert torch.equal(mine[0], sequences), (case.name, early, mine, sequences)
            same[early] += 1
            worst = max(worst, float((mine[1].double() - scores.double()).abs().max()))
    print(f"\n{same[True]}/{len(cases)} and {same['never']}/{len(cases)} identical; scores max abs {worst:.1e}")
    assert worst < 1e-5
