"""Case families for `triton-matmul`: a tiled matmul with `tl.dot`, under Triton's interpreter.

A case costs its programs × K-loop trips (the interpreter runs each program's loop body in NumPy, a few ms a trip),
so every case is designed by that number: at most 16 (4 programs × 4 trips; the K = 512 case 1 × 16). The shapes
are a [M, K] and b [K, N]; the checker passes BM, BN and BK in every case but the one that checks the defaults.

Named cases first, one per rule of the contract (KATAS-kernels.md): the square case; M ≠ N both ways (a grid
(N blocks, M blocks) leaves tiles unwritten); K not a multiple of BK (the K mask); b and a as transposed views (the
strides passed, not assumed); K = 1 (a 16-wide dot whose 15 lanes are masked) and M = 1; BK = 16 with 16×16 tiles
(blocks taken from the arguments); rectangular tiles (BM ≠ BN); float16 with K = 512 (a float16 accumulator);
float16 ragged; the default blocks. Then random draws.

The block rule: no load or store wider than max(BM·BK, BK·BN, BM·BN) of the case's blocks.
"""
from __future__ import annotations

import torch

from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _kernels
from checker.specs._rl import pick, randint

DEFAULT = {"BM": 32, "BN": 32, "BK": 32}
TOLERANCES = {torch.float32: (1e-4, 1e-4)}  # sums of up to 64 products (the table's atol 1e-5 is for one)


def block_bound(args: dict) -> int:
    """The widest load or store a case allows: the largest of its three tiles."""
    bm, bn, bk = (int(args.get(name, DEFAULT[name])) for name in ("BM", "BN", "BK"))
    return max(bm * bk, bk * bn, bm * bn)


call, expected, compare, matches = _kernels.hooks(block_bound)


def _operand(g: torch.Generator, rows: int, cols: int, transposed: bool, dtype: torch.dtype,
             scale: float = 1.0) -> torch.Tensor:
    """A [rows, cols] normal draw × scale; `transposed`: the transpose of a contiguous [cols, rows] tensor (strides
    (1, rows))."""
    if transposed:
        return (scale * torch.randn(cols, rows, generator=g, dtype=torch.float64)).to(dtype).t()
    return (scale * torch.randn(rows, cols, generator=g, dtype=torch.float64)).to(dtype)


def _inputs(g: torch.Generator, M: int, K: int, N: int, blocks: tuple[int, int, int] | None, *,
            dtype: torch.dtype = torch.float32, a_t: bool = False, b_t: bool = False, scale: float = 1.0) -> Inputs:
    a = _operand(g, M, K, a_t, dtype, scale)
    b = _operand(g, K, N, b_t, dtype, scale)
    args = {"a": a, "b": b}
    if blocks is not None:
        args.update(zip(("BM", "BN", "BK"), blocks))
    bm, bn, bk = blocks or tuple(DEFAULT.values())
    programs, trips = -(-M // bm) * -(-N // bn), -(-K // bk)
    show = {"a": f"{list(a.shape)} strides {a.stride()}", "b": f"{list(b.shape)} strides {b.stride()}",
            "dtype": str(dtype).removeprefix("torch."), "BM, BN, BK": f"{bm}, {bn}, {bk}",
            "programs × K trips": f"{programs} × {trips}"}
    return Inputs(args=args, show=show)


def _case(M: int, K: int, N: int, blocks: tuple[int, int, int] | None = (32, 32, 32), **how):
    return lambda g: _inputs(g, M, K, N, blocks, **how)


def _random(g: torch.Generator) -> Inputs:
    M, K, N = randint(g, 1, 64), randint(g, 1, 64), randint(g, 1, 64)
    bk = pick(g, [16, 32])
    side = pick(g, ["a", "b"]) if float(torch.rand((), generator=g)) < 0.2 else None
    dtype = torch.float16 if float(torch.rand((), generator=g)) < 0.25 else torch.float32
    return _inputs(g, M, K, N, (32, 32, bk), dtype=dtype, a_t=side == "a", b_t=side == "b")


# float16_long_k second: the GPU compile takes the first four distinct signatures of a kernel in launch order
# (kernel_check.SIGNATURES_PER_KERNEL), and a float16 one must be among them (a float16 accumulator whose type the
# loop changes fails only there).
FAMILIES = (
    Family("square", _case(64, 64, 64)),
    Family("float16_long_k", _case(32, 512, 32, dtype=torch.float16, scale=2.0)),
    Family("m_not_n", _case(40, 50, 30)),
    Family("n_wider_than_m", _case(20, 32, 70)),
    Family("k_ragged", _case(24, 45, 40)),
    Family("b_transposed", _case(48, 40, 24, b_t=True)),
    Family("a_transposed", _case(24, 40, 48, a_t=True)),
    Family("k_is_one", _case(40, 1, 24, (32, 32, 16))),
    Family("m_is_one", _case(1, 40, 48)),
    Family("bk_16", _case(32, 64, 32, (16, 16, 16))),
    Family("rectangular_tiles", _case(40, 20, 50, (16, 32, 16))),
    Family("float16_ragged", _case(40, 45, 24, dtype=torch.float16)),
    Family("default_blocks", _case(48, 40, 56, None), track_device=True),
    Family("random", _random, draws=100),
)


# ---------------------------------------------------------------- known mistakes (real kernels: _kernel_mistakes/)


def _known(name: str) -> _kernels.Lazy:
    return _kernels.lazy("triton_matmul", name)


MISTAKES = (
    Mistake("no_k_mask", _known("no_k_mask")),
    Mistake("k_mask_not_advanced", _known("k_mask_not_advanced")),
    Mistake("load_unmasked", _known("load_unmasked")),
    Mistake("store_unmasked", _known("store_unmasked")),
    Mistake("k_tail_dropped", _known("k_tail_dropped")),
    Mistake("half_accumulator", _known("half_accumulator")),
    Mistake("bk_below_16", _known("bk_shrunk_to_k"), variant="shrunk"),
    Mistake("bk_below_16", _known("bk_eight"), variant="eight"),
    Mistake("fixed_block", _known("fixed_blocks")),
    Mistake("grid_swapped", _known("grid_swapped")),
    Mistake("b_strides_swapped", _known("b_strides_swapped")),
    Mistake("strides_from_shape", _known("strides_from_shape")),
    Mistake("c_strides_of_a", _known("c_strides_of_a")),
    Mistake("float32_output", _known("float32_output")),
    Mistake("result_from_torch", _known("cast_after_launch")),
    Mistake("no_device", _known("no_device")),
)
