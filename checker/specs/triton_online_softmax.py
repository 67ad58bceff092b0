"""Case families for `triton-online-softmax`: a row softmax whose kernel streams each row in column blocks of
BLOCK, under Triton's interpreter.

The block rule makes the kata: no load or store may be wider than the BLOCK a case passes (32 or 64; 64 where it
passes none), and every row but the short ones is longer than that, so a kernel that loads the whole row at once
fails. A case costs its rows × loop trips: at most 4 rows × 8 trips (two passes over ≤ 4 blocks), the ×100 case
2 × 10. Named cases first, one per rule of the contract (KATAS-kernels.md): N a multiple of BLOCK, one past it and
shorter than it (the last, partial block), rows around −50 (padding loaded as 0 wins the max), rows around −120
(below −104 exp underflows in float32: a running max started at 0 divides 0 by 0), a rising row whose max is in
its last block (a running sum not rescaled when the max grows), logits ×100 (no max subtraction overflows), N = 1,
a column slice (the two row strides), float16 and the default BLOCK. Then random draws.
"""
from __future__ import annotations

import torch

from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _kernels
from checker.specs._rl import pick, randint

DEFAULT_BLOCK = 64


def block_bound(args: dict) -> int:
    """The widest load or store a case allows: the BLOCK it passes, or the default."""
    return int(args.get("BLOCK", DEFAULT_BLOCK))


call, expected, compare, matches = _kernels.hooks(block_bound)


def _args(x: torch.Tensor, block: int | None) -> Inputs:
    shown = DEFAULT_BLOCK if block is None else block
    show = {"shape": tuple(x.shape), "row stride": x.stride(0), "dtype": str(x.dtype).removeprefix("torch."),
            "BLOCK": shown, "blocks per row": -(-x.shape[1] // shown)}
    return Inputs(args={"x": x} if block is None else {"x": x, "BLOCK": block}, show=show)


def _draw(g: torch.Generator, M: int, N: int, scale: float, shift: float, width: int | None,
          dtype: torch.dtype) -> torch.Tensor:
    full = torch.randn(M, width or N, generator=g, dtype=torch.float64) * scale + shift
    return full.to(dtype)[:, :N]  # a view with row stride `width` when it is wider than N


def _rows(M: int, N: int, block: int | None, *, scale: float = 1.0, shift: float = 0.0, width: int | None = None,
          dtype: torch.dtype = torch.float32):
    """[M, N] normal draws × scale + shift; with `width`, the first N columns of an [M, width] tensor."""
    return lambda g: _args(_draw(g, M, N, scale, shift, width, dtype), block)


def _around(M: int, N: int, centre: float, block: int):
    """[M, N] uniform in centre ± 1: every value far below 0."""
    def make(g: torch.Generator) -> Inputs:
        x = centre + 2.0 * torch.rand(M, N, generator=g, dtype=torch.float64) - 1.0
        return _args(x.float(), block)
    return make


def _rising(g: torch.Generator) -> Inputs:
    # Each row climbs from 0 to 20, so every block raises the running max and the row's max is in its last block: a
    # running sum kept in the units of an older max (not rescaled by exp(m_old − m_new)) is e^20 times too large.
    M, N = 2, 200
    x = torch.linspace(0.0, 20.0, N, dtype=torch.float64).expand(M, N) + 0.1 * torch.randn(M, N, generator=g,
                                                                                          dtype=torch.float64)
    return _args(x.float(), 64)


def _random(g: torch.Generator) -> Inputs:
    block = pick(g, [32, 64])
    M, N = randint(g, 1, 4), randint(g, 1, 4 * block)
    shift = pick(g, [0.0, 0.0, -30.0])
    dtype = pick(g, [torch.float32, torch.float32, torch.float16])
    return _args(_draw(g, M, N, pick(g, [1.0, 3.0]), shift, None, dtype), block)


FAMILIES = (
    Family("multiple_of_block", _rows(4, 128, 64)),
    Family("one_past_blocks", _rows(4, 129, 64)),
    Family("shorter_than_block", _rows(4, 37, 64)),
    Family("all_negative", _around(4, 100, -50.0, 64)),
    Family("below_exp_range", _around(3, 100, -120.0, 64)),
    Family("max_in_last_block", _rising),
    Family("logits_x100", _rows(2, 160, 32, scale=100.0)),
    Family("n_is_one", _rows(4, 1, 32)),
    Family("column_slice", _rows(3, 150, 64, width=256)),
    Family("float16", _rows(4, 150, 64, scale=3.0, dtype=torch.float16)),
    Family("default_block", _rows(3, 200, None), track_device=True),
    Family("random", _random, draws=89),
)


# ---------------------------------------------------------------- known mistakes (real kernels: _kernel_mistakes/)


def _known(name: str) -> _kernels.Lazy:
    return _kernels.lazy("triton_online_softmax", name)


MISTAKES = (
    Mistake("not_rescaled", _known("not_rescaled")),
    Mistake("max_from_zero", _known("max_from_zero")),
    Mistake("whole_row", _known("whole_row")),
    Mistake("last_block_dropped", _known("last_block_dropped")),
    Mistake("zero_padding", _known("zero_padding")),
    Mistake("no_max", _known("no_max")),
    Mistake("single_pass", _known("single_pass")),
    Mistake("fixed_block", _known("fixed_block")),
    Mistake("load_unmasked", _known("load_unmasked")),
    Mistake("store_unmasked", _known("store_unmasked")),
    Mistake("row_stride_is_n", _known("row_stride_is_n")),
    Mistake("out_stride_of_x", _known("out_stride_of_x")),
    Mistake("result_from_torch", _known("cast_after_launch"), variant="cast"),
    Mistake("result_from_torch", _known("sum_after_launch"), variant="normalised"),
    Mistake("no_device", _known("no_device")),
    Mistake("output_is_input", _known("output_is_input")),
    Mistake("float32_output", _known("float32_output")),
)
