"""Case families for `triton-reduce-sum`: one program per block, the programs' sums combined into one float32 total.

The cost of a case under Triton's interpreter is its program count (≤ 10 here: n ≤ 600 with BLOCK ≥ 64, and the
float16 overflow case's 1000 with BLOCK 256), not its elements. Every case passes BLOCK but the one that checks the
default (64) exists; no load, store or atomic may touch more than that many elements (the block rule).

The one kata whose grid is part of the contract (KATAS-kernels.md, decision 4): a single program looping over the
whole input is right in value and race-free, but skips what the kata teaches, combining programs. So after the
shared checks (`_kernels.compare`: guards, inputs, the device rule, shape and dtype, elements never stored) the
first launch's grid must be (cdiv(n, BLOCK),), before NaN and values are compared; `matches` holds the namer to the
same grid. Atomics into a zeroed output and partial sums added by a second launch both pass (decision 5).

The tolerance is rtol 1e-4 and atol 1e-5 · max(1, Σ|x|): on a GPU the atomics add the block sums in any order.
"""
from __future__ import annotations

import re
from dataclasses import replace

import torch

from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _kernels
from checker.specs._rl import pick, randint
from checker.text.i18n import tr

DEFAULT_BLOCK = 64
RTOL, ATOL = 1e-4, 1e-5
VALUES = ("nonfinite", "values", "precision")  # what the comparison says after every rule held: the grid goes first
QUOTED = re.compile(r"`.*`")  # the one tensor a race message quotes, in either language (its name may hold backticks)


def block_bound(args: dict) -> int:
    """The widest load, store or atomic a case allows: the BLOCK it passes, or the default."""
    return int(args.get("BLOCK", DEFAULT_BLOCK))


call, expected, _compare, _matches = _kernels.hooks(block_bound)


def _args(x: torch.Tensor, block: int | None) -> Inputs:
    """A case's inputs, its tolerance (atol grows with Σ|x|) and what the report shows of it."""
    n = x.numel()
    shown = DEFAULT_BLOCK if block is None else block
    mass = float(x.double().abs().sum())
    args = {"x": x} if block is None else {"x": x, "BLOCK": block}
    show = {"n": n, "BLOCK": shown, "programs": -(-n // shown), "dtype": str(x.dtype).removeprefix("torch.")}
    return Inputs(args=args, show=show, tol=(RTOL, ATOL * max(1.0, mass)))


def _normal(n: int, block: int | None, dtype: torch.dtype = torch.float32, scale: float = 1.0):
    return lambda g: _args((torch.randn(n, generator=g, dtype=torch.float64) * scale).to(dtype), block)


def _overflowing_blocks(g: torch.Generator) -> Inputs:
    # 1000 float16 values in [300, 500], BLOCK 256: each block sums to about 100,000, past float16's largest value
    # (65,504), so a block sum kept in float16 is inf; the total, about 400,000, is a float32 number.
    x = 300.0 + 200.0 * torch.rand(1000, generator=g, dtype=torch.float64)
    return _args(x.to(torch.float16), 256)


def _random(g: torch.Generator) -> Inputs:
    block = pick(g, [64, 128])
    dtype = pick(g, [torch.float32, torch.float32, torch.float16])
    return _normal(randint(g, 1, 600), block, dtype)(g)


FAMILIES = (
    Family("many_blocks", _normal(300, 64)),
    Family("shorter_than_block", _normal(37, 64)),
    Family("one_element", _normal(1, 64)),
    Family("multiple_of_block", _normal(256, 64)),
    Family("float16_overflowing_blocks", _overflowing_blocks),
    Family("float16_small_values", _normal(500, 128, torch.float16, scale=0.01)),
    Family("default_block", _normal(600, None), track_device=True),
    Family("random", _random, draws=93),
)


# ---------------------------------------------------------------- the grid, checked after the shared rules


def first_grid(outcome) -> tuple[int, ...] | None:
    """The grid of the first launch the outcome recorded, or None (no launch, or no guard record)."""
    kernels = _kernels.seen(outcome).get("kernels") or ()
    return tuple(int(g) for g in kernels[0]["grid"]) if kernels else None


def _grid_problem(case, got) -> Problem | None:
    n, block = case.inputs.args["x"].numel(), block_bound(case.inputs.args)
    want = -(-n // block)
    grid = first_grid(got)
    if grid is None or grid == (want, 1, 1):
        return None
    shown = f"({grid[0]},)" if grid[1:] == (1, 1) else str(grid)
    return Problem("rule", "", tr(
        "your first launch's grid is {grid}; this kata's grid is (triton.cdiv(n, BLOCK),) = ({want},) for n = {n} "
        "and BLOCK = {block}: one program per block, each adding its block's sum into the output (tl.atomic_add) "
        "or storing it in its own slot for a second launch to add up", grid=shown, want=want, n=n, block=block))


def compare(kata, case, expected, got) -> list[Problem]:
    """The shared order (`_kernels.compare`), with the grid checked after every rule and before NaN and values."""
    problems = _compare(kata, case, expected, got)
    if any(p.kind == "dtype" for p in problems):  # the shared words say "the inputs' dtype": here it is float32
        return [Problem("dtype", p.item, tr(
            "{item} has dtype {got}, expected float32 whatever x's dtype: allocate it as torch.zeros(1, "
            "dtype=torch.float32, device=x.device) and add float32 block sums into it (a float16 total overflows "
            "past 65,504)", item=p.item, got=str(getattr(got.value, "dtype", "?")).removeprefix("torch.")))
                if p.kind == "dtype" else p for p in problems]
    if any(p.kind not in VALUES for p in problems):
        return problems
    wrong_grid = _grid_problem(case, got)
    return [wrong_grid] if wrong_grid is not None else problems


def matches(kata, case, expected, variant, got) -> bool | None:
    """The shared rule, and the same first grid: a single looping program is not a grid that rounds down. A race's
    message quotes the tensor by the name of the variable it was allocated to, found from the innermost frame outside
    kata: for a known mistake (kata's own code) that is whatever called it, which may itself hold backticks (the
    `kata check` command line's comment), so the quoted name is taken out here before the messages are compared."""
    if first_grid(variant) != first_grid(got):
        return False
    return _matches(kata, case, expected, _unnamed(variant), _unnamed(got))


def _unnamed(outcome):
    record = _kernels.seen(outcome)
    error = record.get("error")
    if not error or error[0] != "race":
        return outcome
    said = QUOTED.sub("`…`", str(error[1]))
    return replace(outcome, extras={**outcome.extras, _kernels.GUARD: {**record, "error": [error[0], said]}})


# ---------------------------------------------------------------- known mistakes (real kernels: _kernel_mistakes/)


def _known(name: str) -> _kernels.Lazy:
    return _kernels.lazy("triton_reduce_sum", name)


MISTAKES = (
    Mistake("store_not_atomic", _known("store_not_atomic"), variant="read_add_store"),
    Mistake("store_not_atomic", _known("partials_one_slot"), variant="one_slot"),
    Mistake("output_not_zeroed", _known("output_not_zeroed")),
    Mistake("float16_block_sums", _known("float16_block_sums")),
    Mistake("single_program", _known("single_program")),
    Mistake("total_in_input_dtype", _known("total_in_input_dtype")),
    Mistake("grid_floor", _known("grid_floor")),
    Mistake("load_unmasked", _known("load_unmasked")),
    Mistake("offsets_without_block", _known("offsets_without_block")),
    Mistake("result_from_torch", _known("partials_summed_by_torch"), variant="partials"),
    Mistake("result_from_torch", _known("cast_after_launch"), variant="cast"),
    Mistake("no_device", _known("no_device")),
    Mistake("fixed_block", _known("fixed_block_128"), variant="b128"),
    Mistake("fixed_block", _known("fixed_block_256"), variant="b256"),
    Mistake("fixed_block", _known("fixed_block_512"), variant="b512"),
    Mistake("fixed_block", _known("fixed_block_1024"), variant="b1024"),
)
