"""Case families for `softmax` (NumPy): every axis and rank, both float dtypes, huge values, -inf."""
from __future__ import annotations

import numpy as np
import torch

from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._rl import pick, randint, uniform

_OMIT = object()  # call without `dim`, so its default (-1) is used


def _normal(g: torch.Generator, shape: tuple[int, ...], scale: float = 2.0, dtype=np.float32) -> np.ndarray:
    return (scale * torch.randn(shape, generator=g, dtype=torch.float64)).numpy().astype(dtype)


def _tol(x: np.ndarray) -> tuple[float, float] | None:
    """A float32 input of magnitude M is itself only known to about M * eps: exp(x - m - log s), a
    correct order of operations, rounds x - lse at that scale. Allow it where it exceeds the table's 1e-4."""
    if x.dtype != np.float32:
        return None
    rtol = 4 * float(np.finfo(np.float32).eps) * float(np.abs(x[np.isfinite(x)]).max())
    return (rtol, 1e-5) if rtol > 1e-4 else None


def _args(x: np.ndarray, dim: object) -> Inputs:
    args = {"x": x} if dim is _OMIT else {"x": x, "dim": dim}
    return Inputs(args=args, show={"dim": -1 if dim is _OMIT else dim, "shape": tuple(x.shape)}, tol=_tol(x))


def _case(shape, dim=-1, *, scale=2.0, dtype=np.float32):
    return lambda g: _args(_normal(g, shape, scale, dtype), dim)


def _huge(dtype):
    def make(g: torch.Generator) -> Inputs:
        # ±1e4 and values just below 1e4, so exp(x) overflows and exp(x - max) does not.
        x = _normal(g, (4, 6), 1.0, np.float64)
        x[0] = 1e4 - np.abs(x[0])
        x[1] = -1e4 + x[1]
        x[2, ::2], x[2, 1::2] = 1e4, -1e4
        x[3] = 1e4 * np.sign(x[3]) + x[3]
        return _args(x.astype(dtype), -1)
    return make


def _magnitudes(dim: int):
    def make(g: torch.Generator) -> Inputs:
        # Each slice along `dim` has its own offset: one max over the whole array underflows the others.
        x = _normal(g, (5, 6), 1.0, np.float64)
        offsets = np.array([0.0, 1e3, -1e3, 300.0, -5e3])
        scales = np.array([1.0, 1e-3, 10.0, 100.0, 1.0])
        x = x * scales[:, None] + offsets[:, None]
        x = x if dim in (-1, 1) else x.T.copy()
        return _args(x.astype(np.float32), dim)
    return make


def _neg_inf(shape, dim):
    def make(g: torch.Generator) -> Inputs:
        x = _normal(g, shape, 2.0, np.float32)
        x[torch.rand(shape, generator=g).numpy() < 0.4] = -np.inf
        finite = np.moveaxis(x, dim, -1)  # a view: keep one finite entry per slice along dim
        finite[..., 0] = np.where(np.isfinite(finite[..., 0]), finite[..., 0], 0.5)
        return _args(x, dim)
    return make


def _random(g: torch.Generator) -> Inputs:
    rank = pick(g, [1, 2, 2, 3, 3, 4])
    shape = tuple(randint(g, 1, 6) for _ in range(rank))
    dim = randint(g, -rank, rank - 1)
    dtype = pick(g, [np.float32, np.float32, np.float64])
    scale = pick(g, [0.1, 1.0, 3.0, 30.0])
    x = _normal(g, shape, scale, dtype) + np.asarray(round(uniform(g, -100, 100), 2), dtype=dtype)
    return _args(x.astype(dtype), dim)


FAMILIES = (
    Family("last_axis", _case((4, 7), -1)),
    Family("default_dim", _case((4, 7), _OMIT)),
    Family("first_axis", _case((4, 7), 0)),
    Family("square_first_axis", _case((5, 5), 0)),
    Family("middle_axis", _case((3, 4, 5), 1)),
    Family("negative_middle_axis", _case((3, 4, 5), -2)),
    Family("positive_last_axis", _case((3, 4, 5), 2)),
    Family("rank_one", _case((9,), 0)),
    Family("rank_one_negative", _case((9,), -1)),
    Family("rank_four", _case((2, 3, 4, 5), 1)),
    Family("rank_four_negative", _case((2, 3, 4, 5), -3)),
    Family("size_one_axis", _case((4, 1), 1)),
    Family("float64", _case((4, 7), -1, dtype=np.float64)),
    Family("float64_first_axis", _case((4, 7), 0, dtype=np.float64)),
    Family("huge_values", _huge(np.float32)),
    Family("huge_values_float64", _huge(np.float64)),
    Family("different_magnitudes", _magnitudes(-1)),
    Family("different_magnitudes_first_axis", _magnitudes(0)),
    Family("neg_inf", _neg_inf((5, 6), -1)),
    Family("neg_inf_first_axis", _neg_inf((5, 6), 0)),
    Family("neg_inf_3d", _neg_inf((3, 4, 5), 1)),
    Family("random", _random, draws=80),
)


# ---------------------------------------------------------------- known mistakes


def _last_axis(x, dim=-1):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _no_max(x, dim=-1):
    e = np.exp(x)
    return e / np.sum(e, axis=dim, keepdims=True)


def _global_max(x, dim=-1):
    e = np.exp(x - np.max(x))
    return e / np.sum(e, axis=dim, keepdims=True)


def _float64_out(x, dim=-1):
    x = x.astype(np.float64)
    e = np.exp(x - np.max(x, axis=dim, keepdims=True))
    return e / np.sum(e, axis=dim, keepdims=True)


def _mean_centred(x, dim=-1):
    e = np.exp(x - np.mean(x, axis=dim, keepdims=True))
    return e / np.sum(e, axis=dim, keepdims=True)


def _sum_over_all(x, dim=-1):
    e = np.exp(x - np.max(x, axis=dim, keepdims=True))
    return e / np.sum(e)


def _in_place(x, dim=-1):
    x -= x.max(axis=dim, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=dim, keepdims=True)
    return x


def _no_keepdims(x, dim=-1):
    e = np.exp(x - np.max(x, axis=dim))
    return e / np.sum(e, axis=dim)


MISTAKES = (
    Mistake("dim_ignored", _last_axis),
    Mistake("sum_over_all", _sum_over_all),
    Mistake("in_place", _in_place),
    Mistake("no_keepdims", _no_keepdims),
    Mistake("no_max", _no_max),
    Mistake("global_max", _global_max),
    Mistake("float64_out", _float64_out),
    Mistake("mean_centred", _mean_centred),
)

# `kata check softmax --bench`: a batch of logits over a 32k vocabulary.
BENCH = ("x [64, 32000], dim=-1", lambda g: Inputs(args={"x": torch.randn(64, 32000, generator=g).numpy(), "dim": -1}))
