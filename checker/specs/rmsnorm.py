"""Case families for `rmsnorm`: ranks 1 to 4, a custom eps, values of 1e-3 and a row of zeros, float64
and float64 values of 1e20, float16 and bfloat16 at ordinary scale and with values in the hundreds,
a non-contiguous input, gradients, and the fresh module's parameter."""
from __future__ import annotations

import torch
import torch.nn as nn

from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _norm
from checker.specs._norm import FRESH, gain, pick, randint, randn, uniform

# float32 gradients only where a row has enough values to be more than rounding noise (KATAS.md)
MIN_GRAD_ROW = 8


def _case(*shape, dtype=torch.float32, eps=None, scale=1.0, offset=0.0, grads=True, zero_rows=(), wide_weight=False,
          transposed=False):
    """x of `shape` (last dim = dim) drawn as offset + scale · N(0, 1); rows in `zero_rows` all zero.
    `transposed`: x is a [L, B, dim] view of a [B, L, dim] tensor (not contiguous)."""
    dim = shape[-1]

    def make(g: torch.Generator) -> Inputs:
        x = randn(g, *((shape[1], shape[0], *shape[2:]) if transposed else shape), dtype=dtype, scale=scale, offset=offset)
        x = x.transpose(0, 1) if transposed else x
        for r in zero_rows:
            x.view(-1, dim)[r] = 0
        weight = randn(g, dim, scale=2.0) if wide_weight else gain(g, dim)
        init = {"dim": dim} if eps is None else {"dim": dim, "eps": eps}
        want_grads = grads and (dtype == torch.float64 or dtype == torch.float32 and dim >= MIN_GRAD_ROW)
        return Inputs(args={"x": x}, init=init, params={"weight": weight},
                      grad_of=("x",) if want_grads else (), probe=randn(g, *x.shape) if want_grads else None,
                      show=dict(init))
    return make


def _fresh(g: torch.Generator) -> Inputs:
    return Inputs(args={"x": randn(g, 3, 8, scale=2.0, offset=1.0)}, init={"dim": 8}, show={FRESH: True})


def _random(g: torch.Generator) -> Inputs:
    rank = randint(g, 1, 4)
    dim = pick(g, [1, 2, 4, 8, 16, 32, 64])
    shape = (*[randint(g, 1, 4) for _ in range(rank - 1)], dim)
    dtype = pick(g, [torch.float32, torch.float32, torch.float64])
    eps = pick(g, [None, None, 1e-5, 1e-3, 1e-2, 0.1])
    scale = pick(g, [1.0, 1.0, 0.1, 0.03, 10.0])
    # an offset of a few spreads: float32 answers then agree to (1e-4, 1e-5) whatever their order of
    # operations (large_offset checks a mean far larger than the spread, with its own tolerance)
    offset = pick(g, [0.0, 0.0, round(uniform(g, -3, 3), 2) * scale])
    return _case(*shape, dtype=dtype, eps=eps, scale=scale, offset=offset)(g)


FAMILIES = (
    Family("init", _fresh),
    Family("rank_one", _case(16)),
    Family("rank_two", _case(4, 16)),
    Family("rank_three", _case(2, 5, 8)),
    Family("rank_four", _case(2, 3, 2, 8)),
    Family("float64", _case(3, 4, 12, dtype=torch.float64)),
    Family("random_weight", _case(4, 24, wide_weight=True)),
    Family("custom_eps", _case(4, 16, eps=0.1, scale=0.3), draws=2),
    Family("tiny_values", _case(6, 32, scale=1e-3)),
    Family("zero_row", _case(3, 16, zero_rows=(1,))),
    Family("offset_rows", _case(4, 16, offset=3.0)),
    Family("short_rows_float64", _case(5, 2, dtype=torch.float64)),
    Family("one_feature", _case(4, 1, dtype=torch.float64)),
    Family("huge_float64", _case(4, 16, dtype=torch.float64, scale=1e20, grads=False)),
    Family("float16", _case(4, 32, dtype=torch.float16, grads=False)),
    Family("bfloat16", _case(4, 32, dtype=torch.bfloat16, grads=False)),
    Family("float16_large", _case(4, 64, dtype=torch.float16, scale=300.0, grads=False)),
    Family("bfloat16_large", _case(4, 64, dtype=torch.bfloat16, scale=300.0, grads=False)),
    Family("non_contiguous", _case(3, 5, 16, transposed=True)),
    Family("gradients", _case(2, 3, 48, scale=3.0)),
    Family("device", _case(3, 16), track_device=True),
    Family("random", _random, draws=85),
)


call = _norm.call
expected = _norm.expected
compare = _norm.compare
tolerance_for = _norm.tolerance_for


# ---------------------------------------------------------------- known mistakes


class _RMSNorm(nn.Module):
    """The right computation with switches, one per known mistake."""

    mean_subtracted = False
    eps_outside_root = False
    sum_not_mean = False
    native_half = False  # squares in float16: inf past |x| = 256
    always_float32 = False  # Hugging Face's LlamaRMSNorm: hidden_states.to(torch.float32), whatever the input
    eps_ignored = False
    weight_ignored = False
    one_plus_weight = False  # Gemma's convention: x̂ · (1 + weight)
    dim: int | tuple | None = -1  # None: over every element; (-2, -1): one statistic per [L, D] slab
    statistic = "mean_square"  # mean_square | var_unbiased | var_biased (x.var(): centred, not the mean square)
    times_rms = False  # x · rms instead of x / rms
    eps_missing = False  # no eps at all: a zero row is 0 / 0

    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = 1e-6 if self.eps_ignored else 0.0 if self.eps_missing else eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        if self.native_half:
            h = x
        elif self.always_float32:
            h = x.to(torch.float32)
        else:
            h = x.to(torch.promote_types(x.dtype, torch.float32))
        dim = tuple(range(h.dim())) if self.dim is None else self.dim
        if self.mean_subtracted:
            h = h - h.mean(dim, keepdim=True)
        if self.statistic != "mean_square":
            ms = h.var(dim, keepdim=True, unbiased=self.statistic == "var_unbiased")
        else:
            ms = h.pow(2).sum(dim, keepdim=True) if self.sum_not_mean else h.pow(2).mean(dim, keepdim=True)
        if self.times_rms:
            y = h * torch.sqrt(ms + self.eps)
        else:
            y = h / (ms.sqrt() + self.eps) if self.eps_outside_root else h * torch.rsqrt(ms + self.eps)
        w = self.weight.to(h.dtype)
        if self.weight_ignored:
            w = torch.ones_like(w)
        elif self.one_plus_weight:
            w = 1 + w
        return (y * w).to(x.dtype)


def _variant(**switches):
    return type("Variant", (_RMSNorm,), switches)


MISTAKES = (
    Mistake("mean_subtracted", _variant(mean_subtracted=True)),
    Mistake("eps_outside_root", _variant(eps_outside_root=True)),
    Mistake("sum_not_mean", _variant(sum_not_mean=True)),
    Mistake("half_squares_overflow", _variant(native_half=True)),
    Mistake("always_float32", _variant(always_float32=True)),
    Mistake("eps_ignored", _variant(eps_ignored=True)),
    Mistake("weight_ignored", _variant(weight_ignored=True)),
    Mistake("one_plus_weight", _variant(one_plus_weight=True)),
    Mistake("over_first_dim", _variant(dim=0)),
    Mistake("variance_not_mean_square", _variant(statistic="var_unbiased")),  # x.var(): unbiased by default
    Mistake("variance_not_mean_square", _variant(statistic="var_biased")),
    Mistake("rms_over_all_elements", _variant(dim=None)),
    Mistake("multiplied_by_rms", _variant(times_rms=True)),
    Mistake("eps_missing", _variant(eps_missing=True)),
    Mistake("stats_over_last_two_dims", _variant(dim=(-2, -1))),  # raises on a 1-D x, as the file does
)

# `kata check rmsnorm --bench`: forward and backward over a batch of transformer activations.
BENCH = ("x [8, 512, 1024], forward and backward",
         lambda g: Inputs(args={"x": torch.randn(8, 512, 1024, generator=g)}, init={"dim": 1024}, grad_of=("x",)))
