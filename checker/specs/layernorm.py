"""Case families for `layernorm`: ranks 1 to 4, a custom eps, rows of std 1e-3 and of zeros, one
feature, a mean of 1000 (catastrophic cancellation), values of 1e20, float16 in the hundreds and
bfloat16 around 8, a non-contiguous input, gradients, and the fresh module's parameters."""
from __future__ import annotations

import math

import torch
import torch.nn as nn

from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _norm
from checker.specs._norm import FRESH, gain, pick, randint, randn, shift, uniform

# float32 gradients only where a row has enough values to be more than rounding noise (KATAS.md)
MIN_GRAD_ROW = 16


def _case(*shape, dtype=torch.float32, eps=None, scale=1.0, offset=0.0, grads=True, tol=None, zero_rows=(),
          wide_affine=False, transposed=False):
    """x of `shape` (last dim D) drawn as offset + scale · N(0, 1); rows listed in `zero_rows` all zero.
    `transposed`: x is a [L, B, D] view of a [B, L, D] tensor (not contiguous)."""
    D = shape[-1]

    def make(g: torch.Generator) -> Inputs:
        x = randn(g, *((shape[1], shape[0], *shape[2:]) if transposed else shape), dtype=dtype, scale=scale, offset=offset)
        x = x.transpose(0, 1) if transposed else x
        flat = x.view(-1, D) if x.is_contiguous() else None
        for r in zero_rows:
            flat[r] = 0
        weight, bias = gain(g, D), shift(g, D)
        if wide_affine:
            weight, bias = randn(g, D, scale=2.0), randn(g, D, scale=3.0)
        init = {"normalized_shape": D} if eps is None else {"normalized_shape": D, "eps": eps}
        want_grads = grads and (dtype == torch.float64 or dtype == torch.float32 and D >= MIN_GRAD_ROW)
        return Inputs(args={"x": x}, init=init, params={"weight": weight, "bias": bias},
                      grad_of=("x",) if want_grads else (), probe=randn(g, *x.shape) if want_grads else None,
                      tol=tol, show=dict(init))
    return make


def _fresh(g: torch.Generator) -> Inputs:
    return Inputs(args={"x": randn(g, 3, 8, scale=2.0, offset=1.0)}, init={"normalized_shape": 8}, show={FRESH: True})


def _random(g: torch.Generator) -> Inputs:
    rank = randint(g, 1, 4)
    D = pick(g, [1, 2, 3, 5, 8, 16, 24, 32, 64])
    shape = (*[randint(g, 1, 4) for _ in range(rank - 1)], D)
    dtype = pick(g, [torch.float32, torch.float32, torch.float64])
    eps = pick(g, [None, None, 1e-6, 1e-3, 1e-2, 0.1])
    scale = pick(g, [1.0, 1.0, 0.1, 0.03, 10.0])
    # an offset of a few spreads: float32 answers then agree to (1e-4, 1e-5) whatever their order of
    # operations (large_offset checks a mean far larger than the spread, with its own tolerance)
    offset = pick(g, [0.0, 0.0, round(uniform(g, -3, 3), 2) * scale])
    return _case(*shape, dtype=dtype, eps=eps, scale=scale, offset=offset)(g)


FAMILIES = (
    Family("init", _fresh),
    Family("rank_one", _case(16)),
    Family("rank_two", _case(4, 16)),
    Family("rank_three", _case(2, 5, 16)),
    Family("rank_four", _case(2, 3, 2, 16)),
    Family("float64", _case(3, 4, 12, dtype=torch.float64)),
    Family("random_affine", _case(4, 24, wide_affine=True)),
    Family("custom_eps", _case(4, 16, eps=0.1, scale=0.2), draws=2),
    Family("tiny_rows", _case(6, 32, scale=1e-3, zero_rows=(2,))),
    Family("zero_row", _case(3, 16, zero_rows=(1,))),
    Family("one_feature", _case(5, 1, dtype=torch.float64)),
    Family("two_features", _case(4, 2, dtype=torch.float64)),
    Family("large_offset", _case(16, 64, offset=1000.0, grads=False, tol=(1e-4, 1e-2))),
    Family("huge_float64", _case(4, 16, dtype=torch.float64, scale=1e20, grads=False)),
    Family("float16", _case(4, 32, dtype=torch.float16, grads=False)),
    Family("bfloat16", _case(4, 32, dtype=torch.bfloat16, grads=False)),
    Family("float16_large", _case(4, 64, dtype=torch.float16, scale=400.0, grads=False)),
    Family("bfloat16_offset", _case(32, 64, dtype=torch.bfloat16, offset=8.0, grads=False)),
    Family("non_contiguous", _case(3, 5, 16, transposed=True)),
    Family("gradients", _case(2, 3, 48, scale=3.0, offset=2.0)),
    Family("device", _case(3, 16), track_device=True),
    Family("random", _random, draws=85),
)


call = _norm.call
expected = _norm.expected
compare = _norm.compare
tolerance_for = _norm.tolerance_for


# ---------------------------------------------------------------- known mistakes


class _LayerNorm(nn.Module):
    """The right computation with switches, one per known mistake."""

    unbiased = False
    eps_outside_root = False
    naive_variance = False
    std_plus_eps = False  # the Annotated Transformer's (x − mean) / (x.std() + eps): unbiased std, eps outside
    dims: tuple | int | None = -1  # None: over every element
    eps_ignored = False
    affine_ignored = False
    half_statistics = False
    statistics_detached = False
    affine_swapped = False  # y · bias + weight
    uncentred_variance = False  # (x − mean) / sqrt(E[x²] + eps): the second moment, not the variance
    not_centred = False  # x / sqrt(E[x²] + eps) · weight + bias: RMSNorm with a bias
    eps_missing = False  # no eps at all: a constant row is 0 / 0

    def __init__(self, normalized_shape, eps=1e-5):
        super().__init__()
        self.eps = 1e-5 if self.eps_ignored else 0.0 if self.eps_missing else eps
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))

    def forward(self, x):
        h = x if self.half_statistics else x.to(torch.promote_types(x.dtype, torch.float32))
        dims = tuple(range(h.dim())) if self.dims is None else self.dims
        mean = h.mean(dims, keepdim=True)
        if self.not_centred:
            mean = torch.zeros_like(mean)
        if self.naive_variance:
            var = (h * h).mean(dims, keepdim=True) - mean * mean
        elif self.uncentred_variance or self.not_centred:
            var = (h * h).mean(dims, keepdim=True)
        else:
            var = ((h - mean) ** 2).sum(dims, keepdim=True) / (_count(h, dims) - (1 if self.unbiased or self.std_plus_eps else 0))
        if self.statistics_detached:
            mean, var = mean.detach(), var.detach()
        if self.std_plus_eps or self.eps_outside_root:
            y = (h - mean) / (var.sqrt() + self.eps)
        else:
            y = (h - mean) / torch.sqrt(var + self.eps)
        if self.affine_swapped:
            y = y * self.bias.to(h.dtype) + self.weight.to(h.dtype)
        elif not self.affine_ignored:
            y = y * self.weight.to(h.dtype) + self.bias.to(h.dtype)
        return y.to(x.dtype)


def _count(h, dims):
    return math.prod(h.shape[d] for d in (dims if isinstance(dims, tuple) else (dims,)))


def _variant(**switches):
    return type("Variant", (_LayerNorm,), switches)


MISTAKES = (
    Mistake("unbiased_variance", _variant(unbiased=True)),
    Mistake("eps_outside_root", _variant(eps_outside_root=True)),
    Mistake("std_plus_eps", _variant(std_plus_eps=True)),
    Mistake("naive_variance", _variant(naive_variance=True)),
    Mistake("stats_over_first_dim", _variant(dims=0)),
    Mistake("stats_over_all_elements", _variant(dims=None)),
    Mistake("eps_ignored", _variant(eps_ignored=True)),
    Mistake("affine_ignored", _variant(affine_ignored=True)),
    Mistake("half_statistics", _variant(half_statistics=True)),
    Mistake("statistics_detached", _variant(statistics_detached=True)),
    Mistake("weight_bias_swapped", _variant(affine_swapped=True)),
    Mistake("uncentred_variance", _variant(uncentred_variance=True)),
    Mistake("not_centred", _variant(not_centred=True)),
    Mistake("eps_missing", _variant(eps_missing=True)),
    Mistake("stats_over_last_two_dims", _variant(dims=(-2, -1))),  # raises on a 1-D x, as the file does
)

# `kata check layernorm --bench`: forward and backward over a batch of transformer activations.
BENCH = ("x [8, 512, 1024], forward and backward",
         lambda g: Inputs(args={"x": torch.randn(8, 512, 1024, generator=g)}, init={"normalized_shape": 1024},
                          grad_of=("x",)))
