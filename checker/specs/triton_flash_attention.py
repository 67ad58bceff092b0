"""Case families for `triton-flash-attention`: the FlashAttention forward kernel (self-attention, Lq = Lk = S,
top-left causal) under Triton's interpreter.

A case costs its programs × key-block trips: a program owns BM = 32 queries of one (b, h) and streams S keys in
blocks of BN = 32, so S ≤ 32 is one trip and S ≤ 64 two; the cases stay within 6 programs × 1 trip or 4 × 2. The
block rule: no load or store wider than max(BM, BN)·D elements (a block of q, k, v or o; never a whole score row).
Named cases first, one per rule of the contract (KATAS-kernels.md): two key blocks, S not a multiple of BN and
S < BM (padded keys must score −inf), causal ragged and causal with diagonal tiles, scores far below −104 (a running
max started at 0 divides 0 by 0), a [B, S, H, D] tensor transposed to [B, H, S, D] (strides from the shape),
D = 64, B = 2 and H = 3 (b and h from the program id), large scores (the max subtraction), float16 with and without
the causal mask, and the defaults. Then random draws.
"""
from __future__ import annotations

import torch

from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _kernels
from checker.specs._attention import pick, randint, randn

DEFAULT_BLOCK = 32


def block_bound(args: dict) -> int:
    """The widest load or store a case allows: a block of queries or keys, max(BM, BN)·D elements."""
    D = args["q"].shape[-1]
    return max(int(args.get("BM", DEFAULT_BLOCK)), int(args.get("BN", DEFAULT_BLOCK))) * D


call, expected, compare, matches = _kernels.hooks(block_bound)


# Scores in the hundreds: a float32 score carries a rounding error of about |s|·2⁻²⁴ (1e-5 at 160), which moves its
# exp by as much as rtol 1e-4 allows (a right kernel reaches 43 % of it); these cases are judged at rtol 1e-3, atol
# 1e-4, as the torch flash-attention kata judges its large scores. The mistakes they are for give NaN or inf.
LARGE_SCORES_TOL = (1e-3, 1e-4)


def _args(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool | None, blocks: bool = True,
          tol: tuple[float, float] | None = None) -> Inputs:
    B, H, S, D = q.shape
    args = {"q": q, "k": k, "v": v}
    if causal is not None:
        args["causal"] = causal
    if blocks:
        args.update(BM=DEFAULT_BLOCK, BN=DEFAULT_BLOCK)
    show = {"B, H, S, D": (B, H, S, D), "dtype": str(q.dtype).removeprefix("torch."), "causal": bool(causal),
            "programs": f"{-(-S // DEFAULT_BLOCK)} × {B * H}", "key blocks": -(-S // DEFAULT_BLOCK)}
    if q.stride(-1) != 1 or not q.is_contiguous():
        show["q strides"] = tuple(q.stride())
    return Inputs(args=args, show=show, tol=tol)


def _case(B=1, H=1, S=64, D=16, causal=False, *, dtype=torch.float32, scale=1.0, blocks=True, tol=None):
    """q, k, v drawn normal (q and k × scale); causal None: left out of the call (the default False)."""
    def make(g: torch.Generator) -> Inputs:
        q, k = randn(g, B, H, S, D, dtype=dtype, scale=scale), randn(g, B, H, S, D, dtype=dtype, scale=scale)
        return _args(q, k, randn(g, B, H, S, D, dtype=dtype), causal, blocks, tol)
    return make


def _below_exp_range(g: torch.Generator) -> Inputs:
    # q = 10·|N|, k = −10·|N|: scores around −100·(2/π)·√D ≈ −250 at D = 16; in a row whose scores are all below −104
    # exp(s − 0) underflows to 0 in float32, so a running max started at 0 leaves l = 0 (0 / 0 = NaN).
    B, H, S, D = 1, 1, 40, 16
    q = (10.0 * randn(g, B, H, S, D, dtype=torch.float64).abs()).float()
    k = (-10.0 * randn(g, B, H, S, D, dtype=torch.float64).abs()).float()
    return _args(q, k, randn(g, B, H, S, D), False, tol=LARGE_SCORES_TOL)


def _transposed(g: torch.Generator) -> Inputs:
    # [B, S, H, D] tensors viewed as [B, H, S, D]: strides (S·H·D, D, H·D, 1), not those of the shape.
    B, S, H, D = 1, 40, 2, 16
    q, k, v = (randn(g, B, S, H, D).transpose(1, 2) for _ in range(3))
    return _args(q, k, v, True)


def _random(g: torch.Generator) -> Inputs:
    H, S, D = randint(g, 1, 2), randint(g, 1, 64), pick(g, [16, 32, 64])
    if S > 32:
        H = 1  # two key blocks: 2 query blocks × 1 head × 2 trips
    dtype = pick(g, [torch.float32, torch.float32, torch.float16])
    return _case(1, H, S, D, causal=pick(g, [False, True]), dtype=dtype)(g)


FAMILIES = (
    Family("two_key_blocks", _case(H=2, S=64, D=16), track_device=True),
    Family("ragged_keys", _case(S=37, D=16)),
    Family("shorter_than_block", _case(S=5, D=16)),
    Family("causal_ragged", _case(S=37, D=16, causal=True), track_device=True),
    Family("causal_diagonal_tiles", _case(S=64, D=32, causal=True)),
    Family("below_exp_range", _below_exp_range),
    Family("transposed_causal", _transposed),
    Family("head_dim_64", _case(S=40, D=64)),
    Family("batch_and_heads", _case(B=2, H=3, S=20, D=16)),
    Family("large_scores", _case(S=40, D=16, scale=6.0, tol=LARGE_SCORES_TOL)),
    Family("float16", _case(S=40, D=32, dtype=torch.float16)),
    Family("float16_causal", _case(S=40, D=32, causal=True, dtype=torch.float16)),
    Family("defaults", _case(S=40, D=16, causal=None, blocks=False), track_device=True),
    Family("random", _random, draws=87),
)


# ---------------------------------------------------------------- known mistakes (real kernels: _kernel_mistakes/)


def _known(name: str) -> _kernels.Lazy:
    return _kernels.lazy("triton_flash_attention", name)


MISTAKES = (
    Mistake("acc_not_rescaled", _known("acc_not_rescaled")),
    Mistake("sum_not_rescaled", _known("sum_not_rescaled")),
    Mistake("max_from_zero", _known("max_from_zero")),
    Mistake("no_max", _known("no_max")),
    Mistake("padded_keys_zero", _known("padded_keys_zero")),
    Mistake("causal_strict", _known("causal_strict")),
    Mistake("kv_unmasked", _known("kv_unmasked")),
    Mistake("b_h_swapped", _known("b_h_swapped")),
    Mistake("strides_from_shape", _known("strides_from_shape")),
    Mistake("scale", _known("scale_one_over_d"), variant="one_over_d"),
    Mistake("scale", _known("no_scale"), variant="none"),
    Mistake("whole_key_row", _known("whole_key_row")),
    Mistake("grid_one_head", _known("grid_one_head")),
    Mistake("result_from_torch", _known("cast_after_launch")),
    Mistake("float32_output", _known("float32_output")),
    Mistake("no_device", _known("no_device")),
)
