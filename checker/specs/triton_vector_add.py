"""Case families for `triton-vector-add`: the grid, the tail mask and the block rule, each a named case.

The cost of a case under Triton's interpreter is its program count (≤ 10 here: n ≤ 600, BLOCK ≥ 64), not its
elements; every case passes BLOCK explicitly but the one that checks the default exists. The block rule: no load
or store wider than the BLOCK a case passes (256 where it passes none).
"""
from __future__ import annotations

import torch

from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _kernels
from checker.specs._rl import pick, randint

DEFAULT_BLOCK = 256


def block_bound(args: dict) -> int:
    """The widest load or store a case allows: the BLOCK it passes, or the default."""
    return int(args.get("BLOCK", DEFAULT_BLOCK))


call, expected, compare, matches = _kernels.hooks(block_bound)


def _inputs(g: torch.Generator, n: int, block: int | None, dtype: torch.dtype = torch.float32) -> Inputs:
    x = torch.randn(n, generator=g, dtype=torch.float64).to(dtype)
    y = torch.randn(n, generator=g, dtype=torch.float64).to(dtype)
    args = {"x": x, "y": y} if block is None else {"x": x, "y": y, "BLOCK": block}
    shown = DEFAULT_BLOCK if block is None else block
    return Inputs(args=args, show={"n": n, "BLOCK": shown, "programs": -(-n // shown)})


def _case(n: int, block: int | None, dtype: torch.dtype = torch.float32):
    return lambda g: _inputs(g, n, block, dtype)


def _random(g: torch.Generator) -> Inputs:
    block = pick(g, [64, 128, 256])
    dtype = pick(g, [torch.float32, torch.float32, torch.float16])
    return _inputs(g, randint(g, 1, 600), block, dtype)


FAMILIES = (
    Family("one_element", _case(1, 64)),
    Family("multiple_of_block", _case(256, 64)),
    Family("ragged_last_block", _case(3 * 64 + 17, 64)),
    Family("shorter_than_block", _case(37, 64)),
    Family("float16", _case(3 * 128 + 45, 128, torch.float16)),
    Family("block_larger_than_n", _case(300, 1024)),
    Family("default_block", _case(600, None), track_device=True),
    Family("random", _random, draws=93),
)


# ---------------------------------------------------------------- known mistakes (real kernels: _kernel_mistakes/)


def _known(name: str) -> _kernels.Lazy:
    return _kernels.lazy("triton_vector_add", name)


MISTAKES = (
    Mistake("grid_floor", _known("grid_floor")),
    Mistake("load_unmasked", _known("load_unmasked")),
    Mistake("store_unmasked", _known("store_unmasked")),
    Mistake("mask_off_by_one", _known("mask_off_by_one")),
    Mistake("offsets_without_block", _known("offsets_without_block")),
    Mistake("output_is_input", _known("output_is_input"), variant="x"),
    Mistake("output_is_input", _known("output_is_y"), variant="y"),
    Mistake("fixed_block", _known("fixed_block"), variant="launch"),
    Mistake("fixed_block", _known("tutorial_block"), variant="tutorial"),
    Mistake("result_from_torch", _known("sum_after_launch"), variant="sum"),
    Mistake("result_from_torch", _known("cast_after_launch"), variant="cast"),
    Mistake("no_device", _known("no_device")),
    Mistake("float32_output", _known("float32_output")),
    Mistake("x_loaded_twice", _known("x_loaded_twice")),
)
