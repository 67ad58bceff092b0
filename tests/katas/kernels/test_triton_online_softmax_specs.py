"""triton-online-softmax's own rules: the named cases are the contract's edge-case families (128 and 129 columns and
37 with BLOCK 64, rows at −50 ± 1 and at −120 ± 1, a rising row, logits ×100 with BLOCK 32, N = 1, a 3×150 column
slice of 3×256, float16, the default BLOCK), the random draws stay inside the contract's ranges and the case budget
(≤ 4 rows × 8 trips: two passes over ≤ 4 blocks; the ×100 case 2 × 10), and, under Triton's interpreter, right
kernels pass with a wide margin while each known mistake fails exactly the named cases the contract made for it;
the block rule fails a kernel that loads the whole row and lets a three-pass kernel through."""
from __future__ import annotations

import pytest
import torch

from checker.judge import spec as spec_api
from checker.text import catalog
from tests.spec_support import cases, fresh, reference_of, roundtrip, spec_of

pytestmark = pytest.mark.kernels

KATA = "triton-online-softmax"
CPU = torch.device("cpu")
NAMED = ("multiple_of_block", "one_past_blocks", "shorter_than_block", "all_negative", "below_exp_range",
         "max_in_last_block", "logits_x100", "n_is_one", "column_slice", "float16", "default_block")


def _named(seed: int = 1) -> dict:
    return {c.name: c for c in cases(KATA, seed) if c.family.name != "random"}


def _block(case) -> int:
    return spec_of(KATA).block_bound(case.inputs.args)


def _trips(case) -> int:
    """Rows × loop trips of the two-pass kernel: what a case costs under the interpreter."""
    M, N = case.inputs.args["x"].shape
    return M * 2 * -(-N // _block(case))


def test_the_named_cases_are_the_contract_families():
    named = _named()
    assert tuple(named) == NAMED
    x = {name: c.inputs.args["x"] for name, c in named.items()}
    assert [tuple(x[n].shape) for n in NAMED] == [(4, 128), (4, 129), (4, 37), (4, 100), (3, 100), (2, 200),
                                                   (2, 160), (4, 1), (3, 150), (4, 150), (3, 200)]
    assert {n: _block(c) for n, c in named.items() if _block(c) != 64} == {"logits_x100": 32, "n_is_one": 32}
    assert "BLOCK" not in named["default_block"].inputs.args and named["default_block"].family.track_device
    assert x["column_slice"].stride() == (256, 1) and all(x[n].stride(1) == 1 for n in NAMED)
    assert -51 <= float(x["all_negative"].min()) and float(x["all_negative"].max()) <= -49
    assert float(x["below_exp_range"].max()) < -104  # exp(x - 0) underflows to 0 in float32
    assert float(torch.exp(x["below_exp_range"]).max()) == 0.0
    rising = x["max_in_last_block"]
    assert (rising.argmax(dim=1) >= 192).all() and float(rising[:, :64].max()) < 8  # the max in the last block
    assert float(x["logits_x100"].abs().max()) > 100  # exp of it overflows float32 (above ≈ 88.7)
    assert [n for n in NAMED if x[n].dtype == torch.float16] == ["float16"]
    assert len(cases(KATA)) >= 100


def test_random_draws_stay_inside_the_contract_and_the_budget():
    drawn = [c for seed in (1, 2, 3, 4) for c in cases(KATA, seed) if c.family.name == "random"]
    for c in drawn:
        M, N = c.inputs.args["x"].shape
        assert c.inputs.args["BLOCK"] in (32, 64) and 1 <= M <= 4 and 1 <= N <= 4 * c.inputs.args["BLOCK"]
    xs = [c.inputs.args["x"] for c in drawn]
    shifted = sum(float(x.double().mean()) < -20 for x in xs) / len(xs)
    half = sum(x.dtype == torch.float16 for x in xs) / len(xs)
    assert 0.23 < shifted < 0.43 and 0.23 < half < 0.43, (shifted, half)
    assert {c.inputs.args["BLOCK"] for c in drawn} == {32, 64}
    assert any(-(-c.inputs.args["x"].shape[1] // c.inputs.args["BLOCK"]) == 4 for c in drawn)  # rows of 4 blocks
    for c in cases(KATA):
        budget = 2 * 10 if c.name == "logits_x100" else 4 * 8
        assert _trips(c) <= budget, (c.name, _trips(c))


def test_the_reference_is_a_float64_softmax_rounded_once():
    ref = reference_of(catalog.get(KATA))
    for c in _named().values():
        x = c.inputs.args["x"]
        out = ref(**c.inputs.args)
        assert out.dtype == x.dtype and out.shape == x.shape and out.is_contiguous()
        assert torch.allclose(out.double().sum(1), torch.ones(x.shape[0], dtype=torch.float64), atol=2e-3)
        assert torch.equal(out, torch.softmax(x.double(), dim=-1).to(x.dtype))
        assert torch.isfinite(out).all()


# ---------------------------------------------------------------- under Triton's interpreter


@pytest.fixture(scope="module")
def interpreted():
    pytest.importorskip("triton")
    from checker.judge import kernels

    kernels.enter_interpreter()


def _expected(spec, kata, case) -> list:
    return [roundtrip(o) for o in spec.expected(kata, reference_of(kata), case.inputs, CPU)]


def _judged(spec, kata, case, fn) -> list:
    """The spec's compare on `fn` run through the spec's call hook (the guards), against the reference."""
    got = roundtrip(spec.call(kata, fn, fresh(case.inputs), CPU))
    return spec.compare(kata, case, _expected(spec, kata, case), got)


def _failing(fn) -> set[str]:
    spec, kata = spec_of(KATA), catalog.get(KATA)
    return {name for name, case in _named().items() if _judged(spec, kata, case, fn)}


# Which named cases each known mistake fails: the case the contract made for it, and no case it must pass.
ONE_BLOCK = {"shorter_than_block", "n_is_one"}  # rows that fit in one block
FULL_BLOCKS = {"multiple_of_block", "logits_x100"}  # rows without a partial block
POWER = {
    "not_rescaled": set(NAMED) - ONE_BLOCK,
    "single_pass": set(NAMED) - ONE_BLOCK,
    "whole_row": set(NAMED) - ONE_BLOCK,
    "max_from_zero": {"below_exp_range"},
    "no_max": {"below_exp_range", "logits_x100"},
    # float16 (values ×3) and the rising row have maxima far above the padding's 0: its exp(0 - m) is too small to see
    "zero_padding": set(NAMED) - FULL_BLOCKS - {"float16", "max_in_last_block"},
    "last_block_dropped": set(NAMED) - FULL_BLOCKS,
    "load_unmasked": set(NAMED) - FULL_BLOCKS,
    "store_unmasked": set(NAMED) - FULL_BLOCKS,
    "fixed_block": {"logits_x100", "n_is_one"},  # the two cases with BLOCK 32
    "row_stride_is_n": {"column_slice"},
    "out_stride_of_x": {"column_slice"},
    "float32_output": {"float16"},
    "no_device": set(NAMED),
    "output_is_input": set(NAMED),
}


def test_each_known_mistake_fails_its_named_cases(interpreted):
    spec = spec_of(KATA)
    failing = {(m.key, m.variant): _failing(m.fn) for m in spec.MISTAKES}
    for (key, variant), names in failing.items():
        assert names, f"{key} {variant} passes every named case"
        if key in POWER:
            assert names == POWER[key], (key, names)
    assert failing[("result_from_torch", "cast")] == POWER["float32_output"]
    assert failing[("result_from_torch", "normalised")] == set(NAMED)


def test_right_kernels_pass_with_a_wide_margin(interpreted):
    """The mistakes module's right kernel on the named cases of two seeds and 30 draws: the worst error is a small
    part of the tolerance (measured on every case of five seeds: 0.17 % of it in float32, 0.15 % in float16)."""
    from checker.specs._kernel_mistakes import triton_online_softmax as known

    spec, kata, ref = spec_of(KATA), catalog.get(KATA), reference_of(catalog.get(KATA))
    worst = 0.0
    for seed in (1, 2):
        for case in cases(KATA, seed)[:len(NAMED) + 15]:
            outcome = spec.call(kata, known.right, fresh(case.inputs), CPU)
            assert spec.compare(kata, case, _expected(spec, kata, case), roundtrip(outcome)) == [], case.name
            got, e = outcome.value.double(), ref(**case.inputs.args).double()
            rtol, atol = spec_api.tolerance(spec, case, outcome.value.dtype)
            worst = max(worst, float(((got - e).abs() / (atol + rtol * e.abs())).max()))
    assert worst < 0.05, worst


def test_the_block_rule_names_the_width_and_the_bound(interpreted):
    from checker.specs._kernel_mistakes import triton_online_softmax as known

    spec, kata, case = spec_of(KATA), catalog.get(KATA), _named()["one_past_blocks"]  # N = 129: BLOCK 256 > 64
    problems = _judged(spec, kata, case, known.whole_row)
    assert len(problems) == 1 and "256" in problems[0].message and "(64)" in problems[0].message, problems
    assert _judged(spec, kata, case, known.right) == []
