"""The `gpt2-block` spec's own rules: the contract's families, the module protocol (parameters by name, buffers the
module's own), the two GELU conventions and the one verdict (a file passes when one convention reproduces every
case; every case tells them apart; a hybrid matches neither and is reported against the nearest, and named), the
tolerance rule, train and eval mode, the causality report and the raising __init__ cases."""
from __future__ import annotations

import torch
import torch.nn as nn

from checker.judge import spec as spec_api
from checker.judge.compare import verdict_only
from checker.judge.results import Status
from checker.text import catalog
from tests.namer import judge_in_process, name_in_process
from tests.spec_support import CPU, cases, family, fresh, reference_of, roundtrip, spec_of

KATA = catalog.get("gpt2-block")
SPEC = spec_of("gpt2-block")
TANH, ERF = reference_of(KATA), SPEC.CONVENTIONS[1].fn


def _run(entry, case):
    return roundtrip(SPEC.call(KATA, entry, fresh(case.inputs), CPU))


def _judge(entry, case, against=TANH):
    expected = [roundtrip(o) for o in SPEC.expected(KATA, against, fresh(case.inputs), CPU)]
    return SPEC.compare(KATA, case, expected, _run(entry, case))


def _variant(**switches):
    return type("GPT2Block", (SPEC._GPT2,), switches)


def test_the_contract_families_are_all_there_and_there_are_enough_cases():
    names = {f.name for f in SPEC.FAMILIES}
    assert {"c16_h4", "one_head", "head_dim_one", "head_dim_two_t33", "seq_len_one", "batch_three_c24_h3",
            "small_activations", "large_activations", "float64", "float64_c24_h3", "mask_buffer_t64", "causality",
            "indivisible_heads", "device"} <= names
    all_cases = cases("gpt2-block")
    assert len(all_cases) >= 100
    run = [c for c in all_cases if c.inputs.raises is None]
    assert {c.inputs.args["x"].dtype for c in run} == {torch.float32, torch.float64}  # no half precision
    assert all(c.inputs.train for c in run)  # train mode, then eval mode, every case
    assert all(c.inputs.probe is not None for c in run if c.family.name != "random" or c.inputs.args["x"].dtype ==
               torch.float32)  # gradients: every named case and every float32 draw
    assert max(c.inputs.args["x"].shape[1] for c in run) == 64  # T <= 64: nanoGPT's buffer, sliced, covers it
    random32 = [c for c in run if c.family.name == "random" and c.inputs.args["x"].dtype == torch.float32]
    assert all(c.inputs.args["x"].shape[-1] >= 16 for c in random32)  # float32 LayerNorm gradients over >= 16


def test_each_convention_passes_every_case_under_itself_and_the_spec_variant_is_the_reference():
    """Every named case and a dozen random draws (the corpus runs both conventions' files through every case)."""
    for case in [c for c in cases("gpt2-block", seed=4) if c.family.name != "random" or int(c.name[7:]) < 12]:
        assert _judge(TANH, case, TANH) in (None, []), case.name
        assert _judge(ERF, case, ERF) in (None, []), case.name
        assert _judge(_variant(), case, TANH) in (None, []), case.name  # the spec's tanh class is the reference


def test_every_case_tells_the_two_conventions_apart():
    """The decision: float32 outputs alone may not, the float32 gradients and float64 outputs do; so every case
    that runs the block fails the other convention."""
    for case in cases("gpt2-block", seed=1):
        if case.inputs.raises is not None:
            continue
        with verdict_only():
            problems = _judge(ERF, case, TANH)
        items = {p.item for p in problems}
        assert problems, case.name
        if case.inputs.args["x"].dtype == torch.float32:
            assert any(i.startswith("grad of ") for i in items), case.name
        else:
            assert "output" in items, case.name


def test_the_verdict_is_given_under_one_convention_and_names_it():
    for entry, key in ((TANH, "tanh"), (ERF, "erf")):
        run, results = judge_in_process(KATA, entry, 2, random_draws=3)
        assert all(r.status is Status.PASS for r in results) and SPEC.CONVENTIONS[run.convention].key == key


def test_a_hybrid_matches_neither_convention_and_is_named():
    """tanh in float32, erf in float64: right case by case under one convention or the other, wrong as a file."""
    hybrid = _variant(gelu_slip="per_dtype")
    run, results = judge_in_process(KATA, hybrid, 1, random_draws=6)
    failing = [r for r in results if r.status is not Status.PASS]
    assert failing and all(r.name.startswith(("float64", "random")) for r in failing)
    assert SPEC.CONVENTIONS[run.convention].key == "tanh"  # the nearest: it matches the float32 cases
    named, _ = name_in_process(KATA, hybrid, 1, random_draws=6)
    assert named == "gelu_forms_mixed"


def test_a_slip_is_named_whichever_convention_the_file_follows():
    for convention in ("tanh", "erf"):
        named, results = name_in_process(KATA, _variant(convention=convention, post_norm=True), 2, random_draws=3)
        assert named == "post_norm", convention


class _NanoGPTMask(SPEC._GPT2):
    """nanoGPT's persistent causal-mask buffer, and a float64 buffer beside it: both the module's own."""

    def __init__(self, n_embd, n_head):
        super().__init__(n_embd, n_head)
        self.attn.register_buffer("bias", torch.tril(torch.ones(64, 64)).view(1, 1, 64, 64))
        self.register_buffer("two", torch.tensor(2.0, dtype=torch.float64))


def test_buffers_are_the_modules_own_and_parameters_are_loaded_by_name():
    for name in ("c16_h4", "float64", "mask_buffer_t64"):
        case = family("gpt2-block", name)[0]
        got = _run(_NanoGPTMask, case)
        assert got.extras[SPEC.FRESH] == () and _judge(_NanoGPTMask, case) == [], name
    renamed = _variant(separate_qkv=True)
    problems = _judge(renamed, family("gpt2-block", "c16_h4")[0])
    assert len(problems) == 1 and "attn.q_proj.weight" in problems[0].message


class _LayerNormNotOnes(SPEC._GPT2):
    def __init__(self, n_embd, n_head):
        super().__init__(n_embd, n_head)
        nn.init.normal_(self.ln_2.weight)


def test_layernorms_not_starting_at_one_and_zero_fail_but_the_case_still_runs():
    case = family("gpt2-block", "c16_h4")[0]
    assert _run(_LayerNormNotOnes, case).extras[SPEC.FRESH] == (("ln_init", "ln_2"),)
    assert [p.item for p in _judge(_LayerNormNotOnes, case)] == [SPEC.FRESH]


def test_the_tolerance_is_the_contracts_and_scaled_by_the_largest_expected_value():
    case = family("gpt2-block", "float64")[0]
    big = torch.full((3,), 40.0, dtype=torch.float64)
    assert SPEC.tolerance_for(case, "output", torch.float64, big) == (1e-9, 1e-11 * 40.0)
    assert SPEC.tolerance_for(case, "grad of x", torch.float32, torch.full((2,), 0.5)) == (1e-4, 1e-5)


def test_dropout_in_train_mode_fails_the_output_but_not_the_eval_mode_output():
    case = family("gpt2-block", "c16_h4")[0]
    items = {p.item for p in _judge(_variant(attn_dropout=0.1), case)}
    assert "output" in items and SPEC.EVAL not in items


def test_the_causality_case_says_which_earlier_position_moved():
    case = family("gpt2-block", "causality")[0]
    problems = _judge(_variant(causal=False), case)
    said = [p.message for p in problems if p.item == SPEC.EARLIER]
    assert said and said[0].startswith("position 0 changed when only a later token did")
    assert _judge(TANH, case) == []


def test_an_indivisible_head_count_must_raise():
    for name in ("indivisible_heads", "indivisible_heads_odd"):
        case = family("gpt2-block", name)[0]
        want = SPEC.call(KATA, TANH, fresh(case.inputs), CPU)
        got = SPEC.call(KATA, _variant(divisibility_check=False), fresh(case.inputs), CPU)
        assert want.value == spec_api.RAISED + "AssertionError" and got.value == spec_api.RETURNED
