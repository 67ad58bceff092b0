"""Case families for `triton-layernorm`: a LayerNorm forward kernel, one row per program, under Triton's interpreter.

Every case is at most 8 programs (one row each; a kernel that loops over column blocks makes ⌈N/BLOCK⌉ trips a
pass), so a case costs what its row count says. Named cases first, one per rule of the contract
(KATAS-kernels.md): ragged rows whose padding must stay out of the statistics and whose count is N, not BLOCK; a
tiny variance (eps inside the root) and eps = 0.1 passed (eps the argument); a mean of 100 in float32 (two-pass
variance) and in float16 (float32 statistics); rows whose stride is not N; N = 1; one row of 300. Then random draws.

Measured on triton 3.9.0 (300 seeds each, the ratio of the worst error to the tolerance): with x = 100 + N(0, 1)
in float32 at the table's (1e-4, 1e-5) a right kernel reaches 0.99 (rounding the mean to float32 alone moves y by
~1e-5), so `mean_100` draws x = 100 + 0.5·N(0, 1) and allows atol 2e-4: right kernels ≤ 0.2, one-pass moments
(E[x²] − mean²) ≥ 5.4. In float16, x = 100 + N(0, 1) over 4 rows let float16 statistics pass by a ratio of 1.3
at best; 8 rows of 100 + 0.5·N(0, 1) fail them by ≥ 5.1 while a right kernel stays ≤ 0.06.
"""
from __future__ import annotations

import torch

from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _kernels
from checker.specs._rl import pick, randint, uniform

# No load or store may touch more than this many elements (the block rule). The wrapper chooses the block:
# next_power_of_2(N) covers every row of the cases (N <= 300) with 512, and two rows per program still fit.
BLOCK_BOUND = 1024


def block_bound(args: dict) -> int:
    return BLOCK_BOUND


# The contract bans torch.var, torch.std, torch.var_mean and torch.std_mean "and their methods": the functions are refused
# by name before the file runs (kata.toml), x.var() / x.std() while the wrapper runs.
call, expected, compare, matches = _kernels.hooks(block_bound, banned_in_torch=("var", "std", "var_mean", "std_mean"))


def _draw(g: torch.Generator, M: int, N: int, *, scale: float = 1.0, offset: float = 0.0, width: int | None = None,
          dtype: torch.dtype = torch.float32, eps: float | None = None, tol: tuple[float, float] | None = None
          ) -> Inputs:
    """x = offset + scale·N(0, 1), [M, N] (with `width`, the first N columns of an [M, width] tensor: row stride
    `width`); weight = 1 + 0.5·N(0, 1) and bias = 0.5·N(0, 1), [N]; all in `dtype`. `eps` None: left out."""
    full = torch.randn(M, width or N, generator=g, dtype=torch.float64) * scale + offset
    x = full.to(dtype)[:, :N]  # a view with row stride `width` when it is wider than N
    weight = (1.0 + 0.5 * torch.randn(N, generator=g, dtype=torch.float64)).to(dtype)
    bias = (0.5 * torch.randn(N, generator=g, dtype=torch.float64)).to(dtype)
    args = {"x": x, "weight": weight, "bias": bias}
    if eps is not None:
        args["eps"] = eps
    show = {"shape": (M, N), "row stride": x.stride(0), "dtype": str(dtype).removeprefix("torch."),
            "eps": 1e-5 if eps is None else eps}
    return Inputs(args=args, show=show, tol=tol)


def _rows(M: int, N: int, **how):
    return lambda g: _draw(g, M, N, **how)


def _random(g: torch.Generator) -> Inputs:
    M, N = randint(g, 1, 8), randint(g, 1, 300)
    width = N + randint(g, 1, 64) if float(torch.rand((), generator=g)) < 0.25 else None
    dtype = torch.float16 if float(torch.rand((), generator=g)) < 1 / 3 else torch.float32
    eps = pick(g, [None, 1e-5, 1e-3])
    scale = pick(g, [1.0, 1.0, 0.1, 3.0])
    # an offset of a few spreads shows padding in the statistics; `mean_100` checks a far larger one
    offset = pick(g, [0.0, round(uniform(g, -3, 3), 2) * scale])
    return _draw(g, M, N, scale=scale, offset=offset, width=width, dtype=dtype, eps=eps)


FAMILIES = (
    Family("power_of_two", _rows(4, 64, eps=1e-5)),
    Family("ragged", _rows(4, 37, offset=1.0, eps=1e-5)),
    Family("tiny_variance", _rows(4, 64, scale=1e-3, eps=1e-5)),
    Family("eps_argument", _rows(4, 64, scale=0.3, eps=0.1)),
    Family("mean_100", _rows(8, 64, scale=0.5, offset=100.0, eps=1e-5, tol=(1e-4, 2e-4))),
    Family("float16_mean_100", _rows(8, 64, scale=0.5, offset=100.0, dtype=torch.float16, eps=1e-5)),
    Family("strided_rows", _rows(4, 50, width=96, eps=1e-5)),
    Family("one_column", _rows(4, 1, eps=1e-5)),
    Family("one_long_row", _rows(1, 300, eps=1e-5)),
    Family("float16_ragged", _rows(5, 37, scale=2.0, offset=1.0, dtype=torch.float16, eps=1e-5)),
    Family("default_eps", _rows(3, 48, scale=0.01), track_device=True),
    Family("random", _random, draws=100),
)


# ---------------------------------------------------------------- known mistakes (real kernels: _kernel_mistakes/)


def _known(name: str) -> _kernels.Lazy:
    return _kernels.lazy("triton_layernorm", name)


MISTAKES = (
    Mistake("padding_in_variance", _known("padding_in_variance")),
    Mistake("divide_by_block", _known("divide_by_block")),
    Mistake("unbiased_variance", _known("unbiased_variance")),
    Mistake("eps_outside_root", _known("eps_outside_root")),
    Mistake("eps_hardcoded", _known("eps_hardcoded")),
    Mistake("one_pass_moments", _known("one_pass_moments")),
    Mistake("half_statistics", _known("half_statistics")),
    Mistake("weight_bias_unmasked", _known("weight_bias_unmasked")),
    Mistake("load_unmasked", _known("load_unmasked")),
    Mistake("store_unmasked", _known("store_unmasked"), variant="block"),
    Mistake("store_unmasked", _known("loop_store_unmasked"), variant="loop"),
    Mistake("row_stride_as_n", _known("row_stride_as_n")),
    Mistake("output_with_input_stride", _known("output_with_input_stride")),
    Mistake("grid_too_small", _known("grid_too_small")),
    Mistake("block_is_n", _known("block_is_n")),
    Mistake("fixed_block", _known("fixed_block")),
    Mistake("no_device", _known("no_device")),
    Mistake("result_from_torch", _known("cast_after_launch"), variant="cast"),
    Mistake("result_from_torch", _known("affine_after_launch"), variant="affine"),
)
