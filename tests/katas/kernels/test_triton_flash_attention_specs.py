"""triton-flash-attention's own rules: the named cases are the contract's edge-case families (two key blocks, S = 37
and S = 5, causal ragged and causal with diagonal tiles, scores near −160, a [B, S, H, D] tensor transposed, D = 64,
B = 2 and H = 3, q and k ×6, float16 with and without the causal mask, the defaults), the random draws stay inside
the contract's ranges and the case budget (≤ 6 programs × 1 key block or 4 × 2), and, under Triton's interpreter,
right kernels pass with a wide margin while each known mistake fails exactly the named cases the contract made for
it, and the block rule fails a kernel that loads a whole row of keys."""
from __future__ import annotations

import pytest
import torch

from checker.judge import spec as spec_api
from checker.text import catalog
from tests.spec_support import cases, fresh, reference_of, roundtrip, spec_of

pytestmark = pytest.mark.kernels

KATA = "triton-flash-attention"
CPU = torch.device("cpu")
NAMED = ("two_key_blocks", "ragged_keys", "shorter_than_block", "causal_ragged", "causal_diagonal_tiles",
         "below_exp_range", "transposed_causal", "head_dim_64", "batch_and_heads", "large_scores", "float16",
         "float16_causal", "defaults")


def _named(seed: int = 1) -> dict:
    return {c.name: c for c in cases(KATA, seed) if c.family.name != "random"}


def _cost(case) -> tuple[int, int]:
    """(programs, key-block trips) of the stub's grid with 32-blocks: what a case costs under the interpreter."""
    B, H, S, D = case.inputs.args["q"].shape
    return -(-S // 32) * B * H, -(-S // 32)


def test_the_named_cases_are_the_contract_families():
    named = _named()
    assert tuple(named) == NAMED
    q = {name: c.inputs.args["q"] for name, c in named.items()}
    assert [tuple(q[n].shape) for n in NAMED] == [
        (1, 2, 64, 16), (1, 1, 37, 16), (1, 1, 5, 16), (1, 1, 37, 16), (1, 1, 64, 32), (1, 1, 40, 16),
        (1, 2, 40, 16), (1, 1, 40, 64), (2, 3, 20, 16), (1, 1, 40, 16), (1, 1, 40, 32), (1, 1, 40, 32),
        (1, 1, 40, 16)]
    causal = {n for n, c in named.items() if c.inputs.args.get("causal")}
    assert causal == {"causal_ragged", "causal_diagonal_tiles", "transposed_causal", "float16_causal"}
    assert set(named["defaults"].inputs.args) == {"q", "k", "v"}
    assert all({"BM", "BN"} <= set(c.inputs.args) and c.inputs.args["BM"] == c.inputs.args["BN"] == 32
               for n, c in named.items() if n != "defaults")
    assert q["transposed_causal"].stride() == (40 * 2 * 16, 16, 2 * 16, 1)
    scores = q["below_exp_range"].double() @ named["below_exp_range"].inputs.args["k"].double().transpose(-2, -1) / 4
    assert int((scores.amax(-1) < -104).sum()) >= 10  # rows where every exp(s - 0) underflows to 0 in float32
    big = q["large_scores"].double() @ named["large_scores"].inputs.args["k"].double().transpose(-2, -1) / 4
    assert float(big.max()) > 89  # exp(s) overflows float32
    assert [n for n in NAMED if q[n].dtype == torch.float16] == ["float16", "float16_causal"]
    assert len(cases(KATA)) >= 100


def test_random_draws_stay_inside_the_contract_and_the_budget():
    drawn = [c for seed in (1, 2, 3, 4) for c in cases(KATA, seed) if c.family.name == "random"]
    for c in drawn:
        B, H, S, D = c.inputs.args["q"].shape
        assert B == 1 and 1 <= H <= 2 and 1 <= S <= 64 and D in (16, 32, 64)
    causal = sum(bool(c.inputs.args["causal"]) for c in drawn) / len(drawn)
    half = sum(c.inputs.args["q"].dtype == torch.float16 for c in drawn) / len(drawn)
    assert 0.38 < causal < 0.62 and 0.23 < half < 0.43, (causal, half)
    for c in cases(KATA):
        programs, trips = _cost(c)
        assert (programs <= 6 and trips == 1) or (programs <= 4 and trips == 2), (c.name, programs, trips)


def test_the_reference_is_float64_attention_rounded_once():
    ref = reference_of(catalog.get(KATA))
    for name, c in _named().items():
        a = c.inputs.args
        out = ref(**a)
        assert out.dtype == a["q"].dtype and out.shape == a["q"].shape and torch.isfinite(out).all(), name
        want = torch.nn.functional.scaled_dot_product_attention(
            a["q"].double(), a["k"].double(), a["v"].double(), is_causal=bool(a.get("causal")))
        assert torch.equal(out, want.to(out.dtype)) or torch.allclose(out.double(), want, rtol=1e-12, atol=1e-12)


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


RAGGED = {"ragged_keys", "shorter_than_block", "causal_ragged", "below_exp_range", "transposed_causal", "head_dim_64",
          "batch_and_heads", "large_scores", "float16", "float16_causal", "defaults"}  # S not a multiple of 32
CAUSAL = {"causal_ragged", "causal_diagonal_tiles", "transposed_causal", "float16_causal"}
# Which named cases each known mistake fails: the case the contract made for it, and no case it must pass.
POWER = {
    "max_from_zero": {"below_exp_range"},
    "no_max": {"below_exp_range", "large_scores"},
    "causal_strict": CAUSAL,
    "kv_unmasked": RAGGED,
    "b_h_swapped": {"two_key_blocks", "transposed_causal", "batch_and_heads"},  # H > 1
    "grid_one_head": {"two_key_blocks", "transposed_causal", "batch_and_heads"},
    "strides_from_shape": {"transposed_causal"},
    "float32_output": {"float16", "float16_causal"},
    "result_from_torch": {"float16", "float16_causal"},
    "no_device": set(NAMED),
    "whole_key_row": set(NAMED) - {"batch_and_heads"},  # S = 20: next_power_of_2(S) is the block passed
    # keys past S are masked by the causal test too; next to scores ×6 a padded key's exp(0 - m) is too small to see
    "padded_keys_zero": set(NAMED) - CAUSAL - {"two_key_blocks", "large_scores"},
}


def test_each_known_mistake_fails_its_named_cases(interpreted):
    spec = spec_of(KATA)
    failing = {(m.key, m.variant): _failing(m.fn) for m in spec.MISTAKES}
    for (key, variant), names in failing.items():
        assert names, f"{key} {variant} passes every named case"
        if key in POWER:
            assert names == POWER[key], (key, names)
    # the rescaling mistakes need a second key block that raises some row's max
    assert failing[("acc_not_rescaled", "")] >= {"two_key_blocks", "causal_diagonal_tiles", "large_scores"}
    assert failing[("sum_not_rescaled", "")] >= {"two_key_blocks", "causal_diagonal_tiles", "large_scores"}
    assert "shorter_than_block" not in failing[("acc_not_rescaled", "")] | failing[("sum_not_rescaled", "")]
    assert failing[("scale", "one_over_d")] == failing[("scale", "none")] == set(NAMED)


def test_right_kernels_pass_with_a_wide_margin(interpreted):
    """The mistakes module's right kernel on the named cases and 20 draws: the worst error is a small part of the
    tolerance (measured on every case of three seeds: WORST)."""
    from checker.specs._kernel_mistakes import triton_flash_attention as known

    spec, kata, ref = spec_of(KATA), catalog.get(KATA), reference_of(catalog.get(KATA))
    worst = 0.0
    for case in cases(KATA, 1)[:len(NAMED) + 20]:
        outcome = spec.call(kata, known.right, fresh(case.inputs), CPU)
        assert spec.compare(kata, case, _expected(spec, kata, case), roundtrip(outcome)) == [], case.name
        got, e = outcome.value.double(), ref(**case.inputs.args).double()
        rtol, atol = spec_api.tolerance(spec, case, outcome.value.dtype)
        worst = max(worst, float(((got - e).abs() / (atol + rtol * e.abs())).max()))
    assert worst < 0.1, worst
