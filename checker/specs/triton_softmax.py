"""Case families for `triton-softmax`: a row softmax kernel, one row per program, under Triton's interpreter.

Every case is at most 8 programs of one trip (one row each), so a case costs what its row count says. Named
cases first, one per rule of the contract (KATAS-kernels.md): ragged rows whose padding must stay out of the max
and the sum, rows far below 0 and logits ×100 (the max subtraction), N = 1, one row of 300 (the block covers the
row), a column slice whose row stride is not N, and float16. Then 100 random draws. The block rule allows a load
or store of 1024 elements: the wrapper chooses its block (next_power_of_2(N), 512 at most here, or more), and two
rows per program pass.
"""
from __future__ import annotations

import torch

from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _kernels
from checker.specs._rl import pick, randint

# No load or store may touch more than this many elements (the block rule). The wrapper chooses the block:
# next_power_of_2(N) covers every row of the cases (N <= 300) with 512, and two rows per program still fit.
BLOCK_BOUND = 1024


def block_bound(args: dict) -> int:
    """The widest load or store a case allows: one row of up to 512 (N <= 300), or two of them."""
    return BLOCK_BOUND


call, expected, compare, matches = _kernels.hooks(block_bound)


def _args(x: torch.Tensor) -> Inputs:
    M, N = x.shape
    return Inputs(args={"x": x}, show={"M": M, "N": N, "row stride": x.stride(0), "programs": M})


def _rows(M: int, N: int, *, scale: float = 1.0, width: int | None = None, dtype: torch.dtype = torch.float32):
    """[M, N] normal draws × scale; with `width`, the first N columns of an [M, width] tensor."""
    def make(g: torch.Generator) -> Inputs:
        return _args(_draw(g, M, N, scale, width, dtype))
    return make


def _draw(g: torch.Generator, M: int, N: int, scale: float, width: int | None, dtype: torch.dtype) -> torch.Tensor:
    full = torch.randn(M, width or N, generator=g, dtype=torch.float64) * scale
    return full.to(dtype)[:, :N]  # a view with row stride `width` when it is wider than N


def _all_negative(g: torch.Generator) -> Inputs:
    # −50 ± 1: a max taken over zero padding is 0, and exp(x − 0) ≈ 2e-22 leaves the padding to fill the sum.
    x = -50.0 + 2.0 * torch.rand(4, 37, generator=g, dtype=torch.float64) - 1.0
    return _args(x.float())


def _random(g: torch.Generator) -> Inputs:
    M, N = randint(g, 1, 8), randint(g, 1, 300)
    width = N + randint(g, 1, 64) if float(torch.rand((), generator=g)) < 0.25 else None
    dtype = torch.float16 if float(torch.rand((), generator=g)) < 1 / 3 else torch.float32
    return _args(_draw(g, M, N, pick(g, [1.0, 10.0]), width, dtype))


FAMILIES = (
    Family("power_of_two", _rows(4, 64), track_device=True),
    Family("ragged", _rows(5, 37)),
    Family("all_negative", _all_negative),
    Family("logits_x100", _rows(4, 50, scale=100.0)),
    Family("n_is_one", _rows(6, 1)),
    Family("one_long_row", _rows(1, 300)),
    Family("column_slice", _rows(4, 30, width=64)),
    Family("float16", _rows(5, 37, dtype=torch.float16)),
    Family("float16_column_slice", _rows(4, 30, scale=3.0, width=64, dtype=torch.float16)),
    Family("float16_long_rows", _rows(8, 300, scale=10.0, dtype=torch.float16)),
    Family("random", _random, draws=100),
)


# ---------------------------------------------------------------- known mistakes (real kernels: _kernel_mistakes/)


def _known(name: str) -> _kernels.Lazy:
    return _kernels.lazy("triton_softmax", name)


MISTAKES = (
    Mistake("zero_padding", _known("zero_padding")),
    Mistake("no_max", _known("no_max")),
    Mistake("no_max", _known("no_max_lse"), variant="lse"),
    Mistake("load_unmasked", _known("load_unmasked")),
    Mistake("store_unmasked", _known("store_unmasked")),
    Mistake("row_stride_is_n", _known("row_stride_is_n")),
    Mistake("out_stride_of_x", _known("out_stride_of_x")),
    Mistake("grid_too_small", _known("grid_too_small")),
    Mistake("fixed_block", _known("fixed_block_64"), variant="b64"),
    Mistake("fixed_block", _known("fixed_block_128"), variant="b128"),
    Mistake("fixed_block", _known("fixed_block_256"), variant="b256"),
    Mistake("result_from_torch", _known("cast_after_launch"), variant="cast"),
    Mistake("result_from_torch", _known("sum_after_launch"), variant="normalised"),
    Mistake("no_device", _known("no_device")),
    Mistake("output_is_input", _known("output_is_input")),
    Mistake("float32_output", _known("float32_output")),
)
