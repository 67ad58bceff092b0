"""beam-search-hf's own rules (KATAS-sequence.md: the beam-search-hf row, "Comparison rules", decisions 2–7, 12): the
stub quotes transformers' three modes and says "never" is truthy, the spec's plain-Python search is the reference
file on every case, every case is ≥ 1e-4 from every tie of the search and of its stop test, the property families
show their property (each mode against the one it is mistaken for, the length penalties, an eos at rank k … 2k−1,
two finishers of one step entering a list at k − 1), and every known mistake fails a case. The case model itself
(rows bit-identical batched or not, TypeError for anything but int64 rows on its device) is beam-search's
(tests/katas/inference/test_beam_search_specs.py). The sealed checker runs the corpus, the drills and the
solutions (tests/katas/test_corpus.py and the all-kata tests); these call the spec and the reference directly."""
from __future__ import annotations

import pytest
import torch

from checker.judge.spec import build_cases, case_names
from checker.specs import beam_search_hf as spec
from checker.specs._beam import GAP, Margins
from checker.text import catalog
from tests.spec_support import reference_of

CPU = torch.device("cpu")


@pytest.fixture(scope="module")
def cases():
    return build_cases(spec, 4)


def _args(case):
    args = dict(case.inputs.args)
    return args.pop("log_prob_fn"), args


def _run(fn, case):
    model, args = _args(case)
    return fn(model.build(CPU), **args)


def _trace(case, margins=None, **switches):
    model, args = _args(case)
    settings = dict(es=args.get("early_stopping", False), lp=args.get("length_penalty", 1.0))
    settings.update({k: switches.pop(k) for k in ("es", "lp") if k in switches})
    return spec._search(lambda seqs: [model.row(s) for s in seqs], args["input_ids"].tolist(), args["num_beams"],
                        args["max_new_tokens"], args.get("eos_token_id"), settings["lp"], settings["es"],
                        args.get("num_return_sequences", 1), margins, **switches)


def _same(a, b) -> bool:
    return (a[0].dtype == b[0].dtype and a[0].shape == b[0].shape and torch.equal(a[0], b[0])
            and a[1].dtype == b[1].dtype and a[1].shape == b[1].shape
            and torch.allclose(a[1].double(), b[1].double(), rtol=1e-5, atol=1e-5))


@pytest.fixture(scope="module")
def expected(cases):
    reference = reference_of(catalog.get("beam-search-hf"))
    return {c.name: _run(reference, c) for c in cases}


def test_the_stub_quotes_the_three_modes_and_says_never_is_truthy():
    text = catalog.get("beam-search-hf").text("en").contract
    head = "\n".join(text.strip().splitlines()[:8])
    assert '`early_stopping` is `True`, `False` or the string `"never"` (truthy!)' in head
    quote = ('"`True`, where the generation stops as soon as there are `num_beams` complete candidates; `False`, where '
             'an heuristic is applied and the generation stops when is it very unlikely to find better candidates; '
             '`"never"`, where the beam search procedure only stops when there cannot be better candidates (canonical '
             'beam search algorithm)."')
    assert quote in " ".join(head.split())


def test_at_least_100_cases_with_every_listed_family():
    names = case_names(spec)
    assert len(names) >= 100
    for family in ("early_stopping_true_two_finish_in_one_step", "early_stopping_true_changes",
                   "early_stopping_false_changes", "never_length_penalty_1_5", "false_stops_early",
                   "never_length_penalty_0", "eos_at_late_rank_lp0", "eos_at_late_rank_lp_negative", "pad_zero",
                   "pad_last_token", "pad_equals_eos", "vocab_twice_beams", "max_new_tokens_one", "device"):
        assert family in names, family


def test_the_plain_search_is_the_reference_file_on_every_case(cases, expected):
    plain = spec._variant()
    for case in cases:
        assert _same(_run(plain, case), expected[case.name]), case.name


def test_every_case_is_at_least_the_margin_from_every_tie_and_its_stop_test(cases):
    for case in cases:
        margins = Margins()
        _trace(case, margins)
        assert margins.smallest >= GAP, (case.name, margins.smallest)


def _tokens(case, **switches):
    return _trace(case, **switches).tokens


def test_the_property_families_show_their_property(cases):
    by = {c.name: c for c in cases}
    differs = {
        "early_stopping_true_changes": {"es": False}, "early_stopping_false_changes": {"es": True},
        "never_length_penalty_1_5": {"es": False}, "never_against_true": {"es": True},
        "false_stops_early": {"es": "never"}, "length_penalty_0": {"lp": 1.0}, "length_penalty_2": {"lp": 1.0},
        "length_penalty_negative": {"lp": 1.0}, "eos_at_late_rank_lp0": {"eos_ranks": "any"},
        "eos_at_late_rank_lp_negative": {"eos_ranks": "any"},
        "early_stopping_true_two_finish_in_one_step": {"fill": "per_offer"},
        "false_heuristic_length_penalty_2": {"stop": "no_penalty"},
        "false_against_worst_finished": {"stop": "best_finished"},
    }
    for name, alternative in differs.items():
        assert _tokens(by[name], **alternative) != _tokens(by[name]), name
    two = _trace(by["early_stopping_true_two_finish_in_one_step"])
    args = by["early_stopping_true_two_finish_in_one_step"].inputs.args
    assert two.double_entry and args["num_return_sequences"] == args["num_beams"] and args["early_stopping"] is True
    for name in ("false_stops_early", "never_length_penalty_0"):
        assert _trace(by[name]).stopped < by[name].inputs.args["max_new_tokens"], name
    for name in ("eos_mid_way_padded", "pad_zero", "pad_one", "pad_last_token", "pad_equals_eos", "device"):
        assert len({len(t) for t in _trace(by[name]).tokens}) > 1, name
    assert 1 in _trace(by["eos_first_step"]).eos_steps
    assert by["pad_last_token"].inputs.args["pad_token_id"] == by["pad_last_token"].inputs.args["log_prob_fn"].vocab - 1


def test_every_known_mistake_fails_some_case(cases, expected):
    for mistake in spec.MISTAKES:
        assert any(not _same(_run(mistake.fn, c), expected[c.name]) for c in cases), mistake.key


def test_never_is_truthy_and_the_modes_are_told_apart_by_identity():
    """`if early_stopping:` takes "never" for True; the reference tests `is True` and `== "never"`."""
    mode = "never"
    assert bool(mode) and mode is not True and mode != True  # noqa: E712
