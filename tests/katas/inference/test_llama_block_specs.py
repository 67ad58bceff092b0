"""The `llama-block` spec's own hooks: the checks of the module as built (parameter names, biases, shapes,
norm weights; buffers are the module's own), the contract's tolerance rule, the causality case's report, the raising
__init__ cases, and that every named edge-case family of the contract file is there."""
from __future__ import annotations

import torch
import torch.nn as nn

from checker.text import catalog
from checker.judge.engine import _Run  # noqa: F401 — the engine's compare is what the report uses
from checker.judge.spec import Outcome
from tests.spec_support import CPU, cases, family, fresh, reference_of, roundtrip, spec_of

KATA = catalog.get("llama-block")
SPEC = spec_of("llama-block")


def _run(entry, case):
    return roundtrip(SPEC.call(KATA, entry, fresh(case.inputs), CPU))


def _judge(entry, case):
    expected = [roundtrip(o) for o in SPEC.expected(KATA, reference_of(KATA), fresh(case.inputs), CPU)]
    return SPEC.compare(KATA, case, expected, _run(entry, case))


def _variant(**switches):
    return type("LlamaDecoderLayer", (SPEC._Llama,), switches)


def test_the_contract_families_are_all_there_and_there_are_enough_cases():
    names = {f.name for f in SPEC.FAMILIES}
    assert {"gqa_4_2", "mqa_4_1", "mha_2_2", "groups_of_three", "head_dim_four", "head_dim_two", "eps_large",
            "theta_100", "theta_500000", "seq_len_one", "seq_len_33", "batch_one", "batch_three", "float64",
            "float64_mqa", "causality", "indivisible_heads", "indivisible_kv_heads", "device"} <= names
    all_cases = cases("llama-block")
    assert len(all_cases) >= 100
    dtypes = {c.inputs.args["x"].dtype for c in all_cases if c.inputs.raises is None}
    assert dtypes == {torch.float32, torch.float64}  # no half precision (decision 6)


def test_the_reference_passes_every_case():
    for case in cases("llama-block", seed=5):
        assert _judge(reference_of(KATA), case) in (None, []), case.name


def test_a_fresh_module_is_checked_on_every_case():
    """The biased variant is stopped before anything loads, on a case of every configuration, by name."""
    biased = _variant(bias=True)
    for case in (family("llama-block", "gqa_4_2") + family("llama-block", "random")[:3]):
        got = _run(biased, case)
        assert got.value is None and [code for code, _ in got.extras[SPEC.FRESH]] == ["biases"]
        problems = _judge(biased, case)
        assert len(problems) == 1 and "self_attn.q_proj.bias" in problems[0].message


class _PersistentInvFreq(SPEC._Llama):
    """inv_freq kept in the state_dict, and a complex freqs_cis table beside it (Meta's): buffers, the module's own."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        inv_freq = self.self_attn.inv_freq
        del self.self_attn._buffers["inv_freq"]
        self.self_attn.register_buffer("inv_freq", inv_freq)  # persistent
        angles = torch.outer(torch.arange(64, dtype=torch.float64), inv_freq)
        self.register_buffer("freqs_cis", torch.polar(torch.ones_like(angles), angles).to(torch.complex64))


def test_buffers_persistent_or_complex_are_the_modules_own_neither_compared_nor_loaded():
    """The module protocol: parameters loaded by name, buffers left alone, and .double() (not .to(dtype)) keeps a
    complex buffer complex."""
    for name in ("mqa_4_1", "float64"):
        case = family("llama-block", name)[0]
        got = _run(_PersistentInvFreq, case)
        assert got.extras[SPEC.FRESH] == ()
        assert _judge(_PersistentInvFreq, case) == [], name
    module = _PersistentInvFreq(16, 4, 2, 24)
    SPEC.spec_api.convert(module, torch.float64)
    assert module.freqs_cis.dtype == torch.complex64 and module.self_attn.q_proj.weight.dtype == torch.float64


class _NormNotOnes(SPEC._Llama):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        nn.init.normal_(self.post_attention_layernorm.weight)


class _WideKV(SPEC._Llama):
    def __init__(self, hidden_size, num_heads, num_kv_heads, intermediate_size, **kw):
        super().__init__(hidden_size, num_heads, num_kv_heads, intermediate_size, **kw)
        self.self_attn.k_proj = nn.Linear(hidden_size, hidden_size, bias=False)


def test_norm_weights_not_ones_fail_but_the_case_still_runs():
    case = family("llama-block", "gqa_4_2")[0]
    got = _run(_NormNotOnes, case)
    assert got.extras[SPEC.FRESH] == (("norm_not_ones", "post_attention_layernorm.weight"),)
    problems = _judge(_NormNotOnes, case)
    assert [p.item for p in problems] == [SPEC.FRESH]  # the loaded weights then give the right output


def test_a_wrong_shape_is_said_with_the_contract_shape():
    case = family("llama-block", "gqa_4_2")[0]
    problems = _judge(_WideKV, case)
    assert len(problems) == 1 and "self_attn.k_proj.weight has shape (16, 16), expected (8, 16)" in problems[0].message


def test_the_tolerance_is_scaled_by_the_largest_expected_value():
    case = family("llama-block", "float64")[0]
    big = torch.full((3,), 40.0, dtype=torch.float64)
    assert SPEC.tolerance_for(case, "output", torch.float64, big) == (1e-5, 1e-5 * 40.0)
    assert SPEC.tolerance_for(case, "grad of x", torch.float32, torch.full((2,), 0.5)) == (1e-4, 1e-5)


def test_float64_computed_partly_in_float32_passes_and_a_float32_only_error_does_not_slip_through():
    """HF's float64 layer computes the norm statistics in float32: within the 1e-5 rule. A layer whose eps is
    1e-5 instead of 1e-6 is caught on the eps_large case whatever the dtype."""
    class Float32Stats(SPEC._Llama):
        def norm(self, x, weight):
            h = x.float()
            return weight * (h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.eps)).to(x.dtype)

    for name in ("float64", "float64_mqa"):
        assert _judge(Float32Stats, family("llama-block", name)[0]) == []
    assert _judge(_variant(fixed_eps=1e-5), family("llama-block", "eps_large")[0])


def test_the_causality_case_says_which_earlier_position_moved():
    case = family("llama-block", "causality")[0]
    problems = _judge(_variant(causal=False), case)
    said = [p.message for p in problems if p.item == SPEC.EARLIER]
    assert len(said) == 1 and said[0].startswith("position 0 changed when only a later token did")
    assert not [p for p in _judge(reference_of(KATA), case) if p.item == SPEC.EARLIER]


def test_the_causality_case_holds_a_file_that_is_right_on_earlier_positions_only_to_the_output():
    """A layer that is causal but wrong elsewhere (GELU) fails the output, not the causality rule."""
    case = family("llama-block", "causality")[0]
    problems = _judge(_variant(activation="gelu"), case)
    assert problems and not [p for p in problems if p.item == SPEC.EARLIER]


def test_the_raising_cases_accept_either_error_and_fail_a_layer_that_builds():
    class NoChecks(SPEC._Llama):
        def __init__(self, hidden_size, num_heads, num_kv_heads, intermediate_size, **kw):
            nn.Module.__init__(self)

    class Raises(SPEC._Llama):
        def __init__(self, hidden_size, num_heads, num_kv_heads, intermediate_size, **kw):
            nn.Module.__init__(self)
            if hidden_size % num_heads or num_heads % num_kv_heads:
                raise ValueError("heads")

    for name in ("indivisible_heads", "indivisible_kv_heads"):
        case = family("llama-block", name)[0]
        expected = SPEC.expected(KATA, reference_of(KATA), fresh(case.inputs), CPU)
        assert expected[0].value == "raised AssertionError"
        assert _run(Raises, case).value == "raised AssertionError"  # either error reads alike
        from checker.judge.compare import compare_outcome
        assert compare_outcome(KATA, SPEC, case, expected[0], _run(NoChecks, case))[0].kind == "raises"


def test_every_named_case_compares_the_gradients_and_some_random_draws_do():
    all_cases = [c for c in cases("llama-block") if c.inputs.raises is None]
    named = [c for c in all_cases if c.family.name != "random"]
    assert all(c.inputs.grad_of == ("x",) and c.inputs.probe is not None for c in named)
    drawn = [c for c in all_cases if c.family.name == "random"]
    with_grads = [c for c in drawn if c.inputs.grad_of]
    assert 0.2 * len(drawn) <= len(with_grads) <= 0.5 * len(drawn)
    assert {c.inputs.args["x"].dtype for c in with_grads} == {torch.float32, torch.float64}
