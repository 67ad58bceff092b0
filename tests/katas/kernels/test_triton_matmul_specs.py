"""triton-matmul's own rules (shared/KATAS-kernels.md, its row and its cases).

The named cases are the contract's edge-case families (square 64³; M ≠ N and N > M, where a grid taken the wrong way
round leaves tiles unwritten; K = 45, not a multiple of BK; b and a as transposed views; K = 1; M = 1; BK = 16;
float16 over K = 512; float16 ragged; the default blocks) plus rectangular tiles (BM ≠ BN), and every case stays in
the budget: programs × K-loop trips ≤ 16. The block rule is the widest of the three tiles. A K shorter than BK is a
16-wide dot with masked lanes, which the guards let run; a BK below 16 is refused as no GPU compiles it. A float16
accumulator whose type `acc += tl.dot(...)` changes runs right under the interpreter: the GPU frontend compile of
the check rejects it, as long as a float16 launch is among the four signatures a kernel is compiled with (the
named cases put one second).

The float16 accumulator is the kata's one statistical rule. Measured (triton 3.9.0, 60 seeds of `float16_long_k`,
float16 draws 2·N(0, 1), a [32, 512] times [512, 32] product): the known float16-accumulator variant failed every
seed (so did a second writing, each tile's dot cast to float16 before the sum: the same outputs), with 10 to 30 of
the 1,024 elements outside the float16 tolerance (mean 18); a float32 accumulator passed every seed. With unit draws the variants passed 3 seeds in 100 (mean 7 elements out), hence the factor 2. The test
runs 6 seeds.
"""
from __future__ import annotations

import pytest
import torch

from checker.judge.worker import load_entry
from checker.text import catalog
from tests.spec_support import cases, fresh, reference_of, roundtrip, spec_of

pytestmark = pytest.mark.kernels

KATA = "triton-matmul"
CPU = torch.device("cpu")
SOLUTION = catalog.CONTENT_DIR / "triton_matmul" / "solutions" / "pointer_increment.py"
# name: (M, K, N), (BM, BN, BK) passed (None: the defaults), dtype, a transposed, b transposed
NAMED = {
    "square": ((64, 64, 64), (32, 32, 32), torch.float32, False, False),
    "m_not_n": ((40, 50, 30), (32, 32, 32), torch.float32, False, False),
    "n_wider_than_m": ((20, 32, 70), (32, 32, 32), torch.float32, False, False),
    "k_ragged": ((24, 45, 40), (32, 32, 32), torch.float32, False, False),
    "b_transposed": ((48, 40, 24), (32, 32, 32), torch.float32, False, True),
    "a_transposed": ((24, 40, 48), (32, 32, 32), torch.float32, True, False),
    "k_is_one": ((40, 1, 24), (32, 32, 16), torch.float32, False, False),
    "m_is_one": ((1, 40, 48), (32, 32, 32), torch.float32, False, False),
    "bk_16": ((32, 64, 32), (16, 16, 16), torch.float32, False, False),
    "rectangular_tiles": ((40, 20, 50), (16, 32, 16), torch.float32, False, False),
    "float16_long_k": ((32, 512, 32), (32, 32, 32), torch.float16, False, False),
    "float16_ragged": ((40, 45, 24), (32, 32, 32), torch.float16, False, False),
    "default_blocks": ((48, 40, 56), None, torch.float32, False, False),
}


def _shape(case) -> tuple:
    a, b = case.inputs.args["a"], case.inputs.args["b"]
    blocks = tuple(case.inputs.args[k] for k in ("BM", "BN", "BK")) if "BM" in case.inputs.args else None
    transposed = lambda t: t.stride(0) == 1 and t.stride(1) == t.shape[0] and t.shape[1] > 1  # noqa: E731
    return (a.shape[0], a.shape[1], b.shape[1]), blocks, a.dtype, transposed(a), transposed(b)


def _cost(case) -> int:
    (M, K, N), blocks, *_ = _shape(case)
    bm, bn, bk = blocks or (32, 32, 32)
    return -(-M // bm) * -(-N // bn) * -(-K // bk)


def test_the_named_cases_are_the_contract_families_and_every_case_fits_the_budget():
    drawn = cases(KATA)
    named = {c.name: c for c in drawn if c.family.name != "random"}
    assert {n: _shape(c) for n, c in named.items()} == NAMED
    assert named["default_blocks"].family.track_device and len(drawn) == 113
    assert all(_cost(c) <= 16 for c in drawn), max(_cost(c) for c in drawn)  # 4 programs × 4 trips; 1 × 16 at K 512
    assert _cost(named["float16_long_k"]) == 16 and _cost(named["square"]) == 8
    randoms = [c for seed in (1, 2, 3) for c in cases(KATA, seed) if c.family.name == "random"]
    shapes = [_shape(c) for c in randoms]
    assert all(1 <= d <= 64 for (dims, *_) in shapes for d in dims)
    assert {blocks for _, blocks, *_ in shapes} == {(32, 32, 16), (32, 32, 32)}
    assert 0.12 < sum(ta or tb for *_, ta, tb in shapes) / len(shapes) < 0.3
    assert 0.17 < sum(dtype == torch.float16 for _, _, dtype, *_ in shapes) / len(shapes) < 0.35


def test_the_block_rule_is_the_widest_of_the_three_tiles():
    bound = spec_of(KATA).block_bound
    assert bound({}) == 1024 and bound({"BM": 16, "BN": 32, "BK": 16}) == 512 and bound({"BM": 16, "BN": 16, "BK": 32}) == 512


def test_the_reference_is_the_float64_product_rounded_once():
    ref = reference_of(catalog.get(KATA))
    g = torch.Generator().manual_seed(3)
    for dtype in (torch.float32, torch.float16):
        a = torch.randn(40, 512, generator=g).to(dtype)
        b = torch.randn(30, 512, generator=g).to(dtype).t()  # a transposed view
        c = ref(a, b)
        assert c.dtype == dtype and c.shape == (40, 30)
        assert torch.equal(c, (a.double() @ b.double()).to(dtype))
    with pytest.raises(AssertionError):
        ref(a, b, BK=8)


def _right():
    return load_entry(SOLUTION, "matmul", "test_triton_matmul_right")


def test_a_k_shorter_than_the_block_is_a_masked_16_wide_dot_and_a_bk_below_16_is_refused():
    from checker.judge import kernels

    kernels.enter_interpreter()
    right = _right()
    a, b = torch.randn(40, 1), torch.randn(1, 24)
    guarded = kernels.run_guarded(right, {"a": a, "b": b, "BM": 32, "BN": 32, "BK": 16}, block_bound=1024)
    assert guarded.error is None and guarded.unstored == 0
    torch.testing.assert_close(guarded.value, a @ b)
    guarded = kernels.run_guarded(right, {"a": a, "b": b, "BM": 32, "BN": 32, "BK": 8}, block_bound=1024)
    assert guarded.error is not None and guarded.error.kind == "dot_inner"
    assert "inner dimension of 8" in guarded.error.message


@pytest.mark.parametrize("seed", range(1, 7))
def test_a_float16_accumulator_fails_the_long_k_case_and_a_float32_one_passes(seed):
    spec, kata = spec_of(KATA), catalog.get(KATA)
    case = next(c for c in cases(KATA, seed) if c.name == "float16_long_k")
    expected = [roundtrip(o) for o in spec.expected(kata, reference_of(kata), fresh(case.inputs), CPU)]
    right = roundtrip(spec.call(kata, _right(), fresh(case.inputs), CPU))
    assert spec.compare(kata, case, expected, right) == []
    variant = next(m for m in spec.MISTAKES if m.key == "half_accumulator")
    problems = spec.compare(kata, case, expected, roundtrip(spec.call(kata, variant.fn, fresh(case.inputs), CPU)))
    assert problems and problems[0].kind == "values" and problems[0].mismatch.mismatched >= 5


TYPE_CHANGE = SOLUTION.read_text().replace("acc = tl.zeros((BM, BN), dtype=tl.float32)",
                                           "acc = tl.zeros((BM, BN), dtype=c_ptr.dtype.element_ty)")


def test_an_accumulator_whose_type_the_loop_changes_passes_every_case_and_fails_the_gpu_compile(tmp_path):
    from checker.judge import kernel_check

    assert TYPE_CHANGE != SOLUTION.read_text()
    path = tmp_path / "type_change.py"
    path.write_text(TYPE_CHANGE)
    spec, kata = spec_of(KATA), catalog.get(KATA)
    entry = load_entry(path, "matmul", "test_triton_matmul_type_change")
    named = [c for c in cases(KATA) if c.family.name != "random"]
    outcomes = []
    for case in named:
        expected = [roundtrip(o) for o in spec.expected(kata, reference_of(kata), fresh(case.inputs), CPU)]
        outcomes.append(roundtrip(spec.call(kata, entry, fresh(case.inputs), CPU)))
        assert spec.compare(kata, case, expected, outcomes[-1]) == [], case.name
    compiled = kernel_check.launches(outcomes)  # what the check compiles: four signatures, in launch order
    assert any(launch.signature["a_ptr"] == "*fp16" for launch in compiled)
    errors = kernel_check.Compile(path, named).problems(outcomes)
    assert errors and "Loop-carried variable acc" in errors[0], errors
