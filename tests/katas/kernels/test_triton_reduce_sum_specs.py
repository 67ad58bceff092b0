"""triton-reduce-sum's own rules (checker/specs/triton_reduce_sum.py): the named cases are the contract's edge-case
families (300 with BLOCK 64, the race case; 37; 1; 256; 1000 float16 values in [300, 500] with BLOCK 256, whose block
sums overflow float16; 500 small float16 values; the default BLOCK on 600), the random draws stay in its ranges and its
budget (≤ 10 programs of one trip), the tolerance's atol grows with Σ|x| and covers the block sums added in any order
(the GPU's atomics), and, under Triton's interpreter: the grid is checked after every shared rule and before NaN and
values (decision 4), atomics and a second launch both pass (decision 5), a plain read-add-store races, an empty output
is NaN, and each known mistake fails exactly the named cases the contract made for it."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from checker.judge import spec as spec_api
from checker.judge.results import Problem
from checker.text import catalog
from tests.spec_support import cases, fresh, reference_of, roundtrip, spec_of

KATA = "triton-reduce-sum"
CPU = torch.device("cpu")
NAMED = {"many_blocks": (300, 64, torch.float32), "shorter_than_block": (37, 64, torch.float32),
         "one_element": (1, 64, torch.float32), "multiple_of_block": (256, 64, torch.float32),
         "float16_overflowing_blocks": (1000, 256, torch.float16), "float16_small_values": (500, 128, torch.float16),
         "default_block": (600, None, torch.float32)}


def _named(seed: int = 1) -> dict:
    return {c.name: c for c in cases(KATA, seed) if c.family.name != "random"}


def test_the_named_cases_are_the_contract_families_and_every_case_fits_the_budget():
    named = _named()
    assert {n: (c.inputs.args["x"].numel(), c.inputs.args.get("BLOCK"), c.inputs.args["x"].dtype)
            for n, c in named.items()} == NAMED
    assert named["default_block"].family.track_device
    big = named["float16_overflowing_blocks"].inputs.args["x"].double()
    assert 300 <= float(big.min()) and float(big.max()) <= 500
    assert float(big[:256].sum()) > 65504 and float(big.sum()) < 3.4e38  # a float16 block sum is inf, the total is not
    assert float(named["float16_small_values"].inputs.args["x"].abs().max()) < 0.1
    spec = spec_of(KATA)
    randoms = [c for seed in (1, 2, 3) for c in cases(KATA, seed) if c.family.name == "random"]
    assert {c.inputs.args["BLOCK"] for c in randoms} == {64, 128}
    assert all(1 <= c.inputs.args["x"].numel() <= 600 and c.inputs.args["x"].dim() == 1 for c in randoms)
    assert 0.2 < sum(c.inputs.args["x"].dtype == torch.float16 for c in randoms) / len(randoms) < 0.45
    drawn = cases(KATA)
    assert len(drawn) == 100
    for c in drawn:  # one trip a program, at most 10 programs
        x = c.inputs.args["x"]
        assert -(-x.numel() // spec.block_bound(c.inputs.args)) <= 10 and x.is_contiguous(), c.name


def test_the_reference_is_a_float64_sum_rounded_once_to_float32():
    ref = reference_of(catalog.get(KATA))
    for c in _named().values():
        x = c.inputs.args["x"]
        out = ref(**c.inputs.args)
        assert out.dtype == torch.float32 and out.shape == (1,)
        assert float(out) == np.float32(np.sum(x.double().numpy()))  # float64 of ≤ 1000 terms, rounded once
    assert torch.isfinite(ref(_named()["float16_overflowing_blocks"].inputs.args["x"])).all()


def test_the_tolerance_grows_with_the_sum_of_magnitudes_and_covers_any_order_of_the_atomics():
    """On a GPU the block sums land in the total in any order. Each named and random case of 20 seeds, its float32 block
    sums (BLOCK as passed) added in 5 random orders in float32: the worst error is under 1 % of the tolerance
    (measured: 0.21 % at most; a float16 total is inf on the overflow case)."""
    spec = spec_of(KATA)
    rng = np.random.default_rng(0)
    worst = 0.0
    for seed in range(1, 21):
        for c in cases(KATA, seed):
            x = c.inputs.args["x"].numpy().astype(np.float32)
            rtol, atol = spec_api.tolerance(spec, c, torch.float32)
            assert (rtol, atol) == (1e-4, 1e-5 * max(1.0, float(np.abs(x.astype(np.float64)).sum())))
            block = spec.block_bound(c.inputs.args)
            sums = np.add.reduceat(x, np.arange(0, x.size, block)).astype(np.float32)
            exact = np.float32(x.astype(np.float64).sum())
            for _ in range(5):
                acc = np.float32(0.0)
                for s in rng.permutation(sums):
                    acc = np.float32(acc + s)
                worst = max(worst, abs(float(acc) - float(exact)) / (atol + rtol * abs(float(exact))))
    assert worst < 0.01, worst


# ---------------------------------------------------------------- under Triton's interpreter


@pytest.fixture(scope="module")
def interpreted():
    pytest.importorskip("triton")
    from checker.judge import kernels

    kernels.enter_interpreter()


def _expected(spec, kata, case) -> list:
    return [roundtrip(o) for o in spec.expected(kata, reference_of(kata), case.inputs, CPU)]


def _judged(fn, case) -> list[Problem]:
    spec, kata = spec_of(KATA), catalog.get(KATA)
    got = roundtrip(spec.call(kata, fn, fresh(case.inputs), CPU))
    return spec.compare(kata, case, _expected(spec, kata, case), got)


def _failing(fn) -> dict[str, Problem]:
    return {name: problems[0] for name, case in _named().items() if (problems := _judged(fn, case))}


# Which named cases each known mistake fails: the case the contract made for it, and no case it must pass.
MULTI = {"many_blocks", "multiple_of_block", "float16_overflowing_blocks", "float16_small_values", "default_block"}
RAGGED = set(NAMED) - {"multiple_of_block"}
POWER = {
    ("store_not_atomic", "read_add_store"): MULTI,
    ("store_not_atomic", "one_slot"): MULTI,
    ("output_not_zeroed", ""): set(NAMED),
    ("float16_block_sums", ""): {"float16_overflowing_blocks"},
    ("single_program", ""): MULTI,
    ("total_in_input_dtype", ""): {"float16_overflowing_blocks", "float16_small_values"},
    ("grid_floor", ""): RAGGED,
    ("load_unmasked", ""): RAGGED,
    ("offsets_without_block", ""): MULTI,
    ("result_from_torch", "partials"): set(NAMED),
    ("result_from_torch", "cast"): {"float16_overflowing_blocks", "float16_small_values"},
    ("no_device", ""): set(NAMED),
    ("fixed_block", "b128"): set(NAMED) - {"float16_small_values"},
    ("fixed_block", "b256"): set(NAMED) - {"float16_overflowing_blocks"},
    ("fixed_block", "b512"): set(NAMED),
    ("fixed_block", "b1024"): set(NAMED),
}
SAYS = {  # the first words of the report on the case each rule was made for
    ("store_not_atomic", "read_add_store"): ("many_blocks", "rule", "programs (0, 0, 0) and (1, 0, 0) both store"),
    ("output_not_zeroed", ""): ("one_element", "nonfinite", "total has 1 NaN"),
    ("float16_block_sums", ""): ("float16_overflowing_blocks", "nonfinite", "total has 1 inf"),
    ("single_program", ""): ("many_blocks", "rule", "your first launch's grid is (1,); this kata's grid"),
    ("total_in_input_dtype", ""): ("float16_small_values", "dtype", "total has dtype float16, expected float32"),
    ("grid_floor", ""): ("shorter_than_block", "rule", "1 of 1 returned elements were never stored"),
    ("load_unmasked", ""): ("shorter_than_block", "rule", "program (0, 0, 0) loads 27 elements outside"),
    ("result_from_torch", "partials"): ("many_blocks", "rule", "1 of 1 returned elements were never stored"),
}


def test_each_known_mistake_fails_exactly_its_named_cases(interpreted):
    spec = spec_of(KATA)
    assert {(m.key, m.variant) for m in spec.MISTAKES} == set(POWER)
    assert len({m.key for m in spec.MISTAKES}) >= 8
    for m in spec.MISTAKES:
        failing = _failing(m.fn)
        assert set(failing) == POWER[(m.key, m.variant)], (m.key, m.variant, sorted(failing))
        if (m.key, m.variant) in SAYS:
            case, kind, words = SAYS[(m.key, m.variant)]
            assert failing[case].kind == kind and failing[case].message.startswith(words), failing[case]
    floor = next(m.fn for m in spec.MISTAKES if m.key == "grid_floor")
    grid = _failing(floor)["many_blocks"]  # 300 with BLOCK 64: four programs, not five
    assert grid.message.startswith("your first launch's grid is (4,); this kata's grid is (triton.cdiv(n, BLOCK),) = (5,)")


def test_atomics_and_a_second_launch_both_pass_with_a_wide_margin(interpreted):
    """Decision 5: the atomic kernel and the two-stage one (partials in their own slots, then one program) on two
    seeds: the worst error is a small part of the tolerance (measured on five seeds, either kernel: 0.19 % in float32,
    0.06 % in float16)."""
    from checker.specs._kernel_mistakes import triton_reduce_sum as known

    def two_launches(x, BLOCK=64):
        n, programs = x.numel(), -(-x.numel() // BLOCK)
        partials = torch.empty(programs, dtype=torch.float32, device=x.device)
        out = torch.empty(1, dtype=torch.float32, device=x.device)
        known.partial_kernel[(programs,)](x, partials, n, BLOCK=BLOCK)
        known.add_partials_kernel[(1,)](partials, out, programs, BLOCK=16)
        return out

    spec, kata, ref = spec_of(KATA), catalog.get(KATA), reference_of(catalog.get(KATA))
    worst = 0.0
    for fn, seed in ((known.total, 1), (two_launches, 2)):
        for case in cases(KATA, seed):
            outcome = spec.call(kata, fn, fresh(case.inputs), CPU)
            assert spec.compare(kata, case, _expected(spec, kata, case), roundtrip(outcome)) == [], case.name
            e = float(ref(**case.inputs.args))
            rtol, atol = spec_api.tolerance(spec, case, torch.float32)
            worst = max(worst, abs(float(outcome.value) - e) / (atol + rtol * abs(e)))
    assert worst < 0.05, worst


def test_the_grid_comes_after_the_shared_rules_and_before_nan_and_values(interpreted):
    """A single looping program into torch.empty: right where n <= BLOCK, the grid where n > BLOCK (before the NaN its
    empty output would show, which its own store overwrites anyway); a floor grid into torch.empty: the grid, not NaN;
    the namer's match holds two outcomes to one first grid."""
    import triton

    from checker.specs._kernel_mistakes import triton_reduce_sum as known

    def floor_into_empty(x, BLOCK=64):
        out = torch.empty(1, dtype=torch.float32, device=x.device)
        known.sum_kernel[(max(1, x.numel() // BLOCK),)](x, out, x.numel(), BLOCK=BLOCK)
        return out

    named = _named()
    assert _judged(known.single_program, named["shorter_than_block"]) == []
    said = _judged(floor_into_empty, named["many_blocks"])
    assert len(said) == 1 and said[0].message.startswith("your first launch's grid is (4,)"), said
    assert _judged(floor_into_empty, named["multiple_of_block"])[0].kind == "nonfinite"  # right grid: then the NaN
    spec, kata, case = spec_of(KATA), catalog.get(KATA), named["many_blocks"]
    outcome = {fn: roundtrip(spec.call(kata, fn, fresh(case.inputs), CPU))
               for fn in (known.single_program, known.grid_floor, known.total)}
    assert spec.first_grid(outcome[known.single_program]) == (1, 1, 1)
    assert spec.first_grid(outcome[known.grid_floor]) == (4, 1, 1)
    assert spec.first_grid(outcome[known.total]) == (triton.cdiv(300, 64), 1, 1)
    expected = _expected(spec, kata, case)
    assert spec.matches(kata, case, expected, outcome[known.single_program], outcome[known.grid_floor]) is False
    assert spec.matches(kata, case, expected, outcome[known.single_program], outcome[known.single_program]) is None
