"""beam-search's own rules (KATAS-sequence.md: the beam-search row, "Comparison rules", decisions 1, 3–7, 12): the
case model (rows bit-identical batched or not, TypeError for anything but int64 [N, L'] on its device), the
margin rule on every case under all five conventions, the properties the named families promise, the conventions
told apart, and every known mistake visible. The sealed checker runs the corpus, the drills and the solutions
(tests/katas/test_corpus.py and the all-kata tests); these call the spec and the reference directly."""
from __future__ import annotations

import pytest
import torch

from checker.judge.spec import build_cases
from checker.specs import beam_search as spec
from checker.specs._beam import GAP, BeamModel, Margins
from checker.text import catalog
from tests.spec_support import reference_of

CPU = torch.device("cpu")


@pytest.fixture(scope="module")
def cases():
    return build_cases(spec, 5)


def _run(fn, case):
    args = dict(case.inputs.args)
    model = args.pop("log_prob_fn")
    return fn(model.build(CPU), **args)


def _same(a, b) -> bool:
    return (a[0].dtype == b[0].dtype and a[0].shape == b[0].shape and torch.equal(a[0], b[0])
            and a[1].dtype == b[1].dtype and a[1].shape == b[1].shape
            and torch.allclose(a[1].double(), b[1].double(), rtol=1e-5, atol=1e-5))


@pytest.fixture(scope="module")
def answers(cases):
    """Each convention's answer on each case."""
    return {key: [_run(spec._variant(key), c) for c in cases] for key in spec.CONVENTION_KEYS}


# ---------------------------------------------------------------- the model


def test_rows_are_bit_identical_batched_or_one_at_a_time_and_normalised():
    for dtype in (torch.float32, torch.float64):
        fn = BeamModel(123, 11, 3, eos=4, eos_bias=-1.0, eos_slope=0.5, dtype=dtype).build(CPU)
        rows = torch.tensor([[1, 2, 3, 4, 0], [1, 2, 3, 7, 9], [5, 5, 5, 5, 5], [1, 2, 3, 4, 10]])
        batched = fn(rows)
        single = torch.cat([fn(rows[i:i + 1]) for i in range(len(rows))])
        assert batched.dtype == dtype and torch.equal(batched, single)
        assert torch.allclose(batched.double().exp().sum(-1), torch.ones(4, dtype=torch.float64), atol=1e-6)
        assert batched[0].tolist() == list(fn.model.row((1, 2, 3, 4, 0)))  # what the references read


def test_the_eos_bias_grows_with_the_generated_length():
    model = BeamModel(9, 10, 2, eos=3, eos_bias=-2.0, eos_slope=1.0, scale=0.0)  # flat but for the eos
    p = [model.row((1, 1) + (0,) * n)[3] for n in range(4)]
    assert p == sorted(p) and p[-1] - p[0] > 1.0


@pytest.mark.parametrize("bad", ["list", "int32", "1d", "empty"])
def test_the_model_raises_type_error_for_anything_but_int64_rows(bad):
    fn = BeamModel(1, 8, 2).build(CPU)
    value = {"list": [[1, 2]], "int32": torch.tensor([[1, 2]], dtype=torch.int32), "1d": torch.tensor([1, 2]),
             "empty": torch.zeros(0, 2, dtype=torch.int64)}[bad]
    with pytest.raises(TypeError):
        fn(value)


def test_the_model_raises_type_error_for_rows_on_another_device():
    fn = BeamModel(1, 8, 2).build(torch.device("meta"))
    with pytest.raises(TypeError, match="device"):
        fn(torch.tensor([[1, 2]]))


# ---------------------------------------------------------------- the cases


def test_at_least_100_cases_with_every_listed_family(cases):
    names = {c.name.split(".")[0] for c in cases}
    assert len(cases) >= 100
    for family in ("eos_mid_way_padding", "one_returned", "all_returned", "conventions_three_answers",
                   "conventions_best_differs", "early_stop_differs", "frozen_beam_pushed_out", "fairseq_fill_differs",
                   "no_eos", "no_eos_length_penalty_2", "length_penalty_0", "length_penalty_2",
                   "length_penalty_negative", "max_new_tokens_one", "eos_first_step", "eos_rank_k_to_2k_lp0",
                   "eos_rank_k_to_2k_lp_negative", "one_token_prompt", "two_beams", "five_beams", "vocab_twice_beams",
                   "pad_equals_eos", "pad_0", "pad_1", "pad_last_token", "float64", "twenty_new_tokens",
                   "peaked_model", "positional_call", "defaults", "random", "device"):
        assert family in names, family


def test_every_case_is_at_least_the_margin_from_every_tie_under_every_convention(cases):
    for case in cases:
        args = {**dict(case.inputs.args)}
        for name, default in (("eos_token_id", None), ("length_penalty", 1.0), ("num_return_sequences", 1),
                              ("pad_token_id", 0)):
            args.setdefault(name, default)
        for run in spec.RUNS:
            margins = Margins()
            run(args, margins)
            assert margins.smallest >= GAP, (case.name, margins.smallest)


def test_the_reference_file_is_the_refill_convention(cases, answers):
    reference = reference_of(catalog.get("beam-search"))
    for case, want in zip(cases, answers["refill"]):
        assert _same(_run(reference, case), want), case.name


def test_the_property_families_show_their_property(cases, answers):
    at = {c.name: i for i, c in enumerate(cases)}

    def differ(a, b, name):
        return not _same(answers[a][at[name]], answers[b][at[name]])

    three = "conventions_three_answers"
    assert differ("refill", "shrinking", three) and differ("refill", "frozen", three) and differ("shrinking", "frozen", three)
    best = at["conventions_best_differs"]
    assert any(not torch.equal(answers["refill"][best][0][0], answers[k][best][0][0]) for k in ("shrinking", "frozen"))
    assert differ("refill", "refill_to_max", "early_stop_differs")
    assert differ("refill", "frozen", "frozen_beam_pushed_out")
    assert differ("refill", "fairseq_fill", "fairseq_fill_differs")
    for name in ("no_eos", "no_eos_length_penalty_2"):  # every convention agrees without an eos
        assert not any(differ("refill", k, name) for k in spec.CONVENTION_KEYS)
    for name in ("length_penalty_0", "length_penalty_2", "length_penalty_negative"):
        case = cases[at[name]]
        for key in spec.CONVENTION_KEYS:
            args = {**case.inputs.args, "length_penalty": 1.0}
            model = args.pop("log_prob_fn")
            assert not _same(spec._variant(key)(model.build(CPU), **args), answers[key][at[name]]), (name, key)
    eos_any = spec._variant("refill", eos_any_rank=True)
    for name in ("eos_rank_k_to_2k_lp0", "eos_rank_k_to_2k_lp_negative"):
        assert not _same(_run(eos_any, cases[at[name]]), answers["refill"][at[name]]), name
    for name in ("eos_mid_way_padding", "pad_equals_eos", "pad_0", "pad_1", "pad_last_token", "float64"):
        for key in spec.CONVENTION_KEYS:  # rows of different lengths: the padding shows
            generated, _, _ = spec._run(key)(cases[at[name]].inputs.args, Margins())
            assert len({len(g) for g in generated}) > 1, (name, key)
    assert cases[at["pad_last_token"]].inputs.args["pad_token_id"] == cases[at["pad_last_token"]].inputs.args[
        "log_prob_fn"].vocab - 1
    args = cases[at["pad_equals_eos"]].inputs.args
    assert args["pad_token_id"] == args["eos_token_id"]


def test_every_pair_of_conventions_is_told_apart(answers):
    keys = spec.CONVENTION_KEYS
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            assert sum(not _same(x, y) for x, y in zip(answers[a], answers[b])) >= 3, (a, b)


def test_every_known_mistake_fails_some_case_in_its_own_kind_of_search(cases, answers):
    """Each mistake, written under each convention (`adapt`), differs from that convention's answer somewhere; a
    slip that exists only in another kind of search is written under that kind."""
    assert len({m.key for m in spec.MISTAKES}) >= 8
    for mistake in spec.MISTAKES:
        for convention in spec.CONVENTIONS:
            variant = convention.adapt(mistake.fn)
            wrong = 0
            for case, want in zip(cases, answers[variant.convention]):
                try:
                    wrong += not _same(_run(variant, case), want)
                except Exception:  # noqa: BLE001 — a variant that raises differs too
                    wrong += 1
                if wrong:
                    break
            assert wrong, (mistake.key, convention.key)


def test_float64_rows_rounded_to_float32_still_pass_the_score_tolerance(cases):
    """A right refill that reads float64 rows in float32 (as a learner's float32 buffer would) keeps the sequences
    and stays within the scores' tolerance (the margin rule; the corpus's fairseq-style file accumulates in float32
    through the sealed checker)."""
    checked = 0
    for case in cases:
        if case.inputs.args["log_prob_fn"].dtype != torch.float64:
            continue
        want = _run(spec._variant("refill"), case)
        args = dict(case.inputs.args)
        model = args.pop("log_prob_fn")
        fn = model.build(CPU)
        got = _run(reference_of(catalog.get("beam-search")), case)
        low = lambda seqs: fn(seqs).float().double()  # noqa: E731 — float32 rows, accumulated in float64
        got32 = spec._variant("refill")(low, **args)
        assert torch.equal(got32[0], want[0]), case.name
        assert torch.allclose(got32[1].double(), want[1], rtol=1e-5, atol=1e-5 * max(1.0, float(want[1].abs().max())))
        assert torch.equal(got[0], want[0])
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("family, seeds, want", [("three", spec.THREE_SEEDS, spec._three),
                                                 ("pushed", spec.PUSHED_SEEDS, spec._pushed_out)])
def test_every_kept_seed_shows_its_property_within_the_margin(family, seeds, want):
    for seed in seeds:
        args, answers = spec._build(10, 3, 8, r=3)(seed), []
        for run in spec.RUNS:
            margins = Margins()
            answers.append(run(args, margins))
            assert margins.smallest >= GAP, (family, seed)
        assert want(answers), (family, seed)
