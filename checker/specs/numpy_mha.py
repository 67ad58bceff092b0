"""Case families for `numpy-mha`: multi-head self-attention forward in NumPy, (in, out) weights, optional biases,
batched [B, L, C] or unbatched [L, C] input, a boolean mask (True = may attend) of every broadcast shape, large
scores in both dtypes, and the float32 result kept float32."""
from __future__ import annotations

import math

import numpy as np
import torch

from checker.judge import spec as spec_api
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._rl import pick, randint

_OMIT = object()  # leave the argument out, so its default is used
_BIASES = ("b_q", "b_k", "b_v", "b_o")


def _normal(g: torch.Generator, shape: tuple[int, ...], scale: float = 1.0) -> np.ndarray:
    return (scale * torch.randn(shape, generator=g, dtype=torch.float64)).numpy()


def _mask(g: torch.Generator, kind: str | None, B: int, H: int, L: int, batched: bool = True) -> np.ndarray | None:
    """kind: None, "causal" [L, L], "padding" [B, 1, 1, L], "b1" [B, 1, L, L], "head" [B, H, L, L] ([H, L, L]
    unbatched), "one_key" [B, H, L, L] with exactly one key per query. Every query keeps at least one key."""
    if kind is None:
        return None
    if kind == "causal":
        return np.tril(np.ones((L, L), dtype=bool))
    if kind == "padding":  # each sequence keeps its first `n` keys
        keep = np.arange(L)[None, :] < np.array([randint(g, 1, L) for _ in range(B)])[:, None]  # [B, L]
        return keep[:, None, None, :]
    if kind == "one_key":
        shape = (B, H, L) if batched else (H, L)
        chosen = torch.randint(0, L, shape, generator=g).numpy()
        return chosen[..., None] == np.arange(L)
    shape = {"b1": (B, 1, L, L), "head": (B, H, L, L) if batched else (H, L, L)}[kind]
    m = torch.rand(shape, generator=g).numpy() < 0.6
    keep = torch.randint(0, L, shape[:-1], generator=g).numpy()[..., None] == np.arange(L)  # one sure key per query
    return m | keep


def _case(B=2, L=5, C=8, H=2, mask=None, biases="all", dtype=np.float32, batched=True, scale=1.0, positional=False,
          integer=False):
    """biases: "all", "none" (passed as None), "omit" (left to their defaults) or "out" (only b_o).
    integer: x and weights small integers times a power of two (exact in float32), scaled by `scale`, so large
    scores are computed exactly whatever the order of operations."""
    def make(g: torch.Generator) -> Inputs:
        shape = (B, L, C) if batched else (L, C)
        if integer:
            ints = lambda s: torch.randint(-3, 4, s, generator=g).double().numpy()  # noqa: E731
            x, ws = ints(shape) * scale, [ints((C, C)) for _ in range(4)]
            bs = [ints((C,)) for _ in range(4)]
        else:
            x = _normal(g, shape, scale)
            ws = [_normal(g, (C, C), 1 / math.sqrt(C)) for _ in range(4)]
            bs = [_normal(g, (C,), 0.5) for _ in range(4)]
        m = _mask(g, mask, B, H, L, batched)
        args = {"x": x.astype(dtype)}
        for name, w in zip(("w_q", "w_k", "w_v", "w_o"), ws):
            args[name] = w.astype(dtype)
        args["num_heads"] = H
        if positional or mask is not None:
            args["mask"] = m
        chosen = {"all": _BIASES, "none": _BIASES, "omit": (), "out": ("b_o",)}[biases]
        for name, b in zip(_BIASES, bs):
            if name in chosen:
                args[name] = None if biases == "none" else b.astype(dtype)
        show = {"x": tuple(x.shape), "num_heads": H, "mask": "None" if m is None else tuple(m.shape),
                "biases": biases}
        return Inputs(args=args, show=show, tol=_large_tol(args) if integer else None)
    return make


def _large_tol(args: dict) -> tuple[float, float] | None:
    """float32 scores of thousands are exact here, but a right softmax written as exp(scores - lse) rounds the
    logsumexp at that scale: allow 4 eps × max|score| where it exceeds the table's 1e-4 (the `softmax` kata's rule)."""
    if args["x"].dtype != np.float32:
        return None
    x, H = args["x"].astype(np.float64), args["num_heads"]
    B, L, C = x.shape
    q, k = (x @ args[w].astype(np.float64) + args[b].astype(np.float64) for w, b in (("w_q", "b_q"), ("w_k", "b_k")))
    q, k = (t.reshape(B, L, H, C // H).transpose(0, 2, 1, 3) for t in (q, k))
    top = float(np.abs(q @ k.transpose(0, 1, 3, 2)).max()) / math.sqrt(C // H)
    rtol = 4 * float(np.finfo(np.float32).eps) * top
    return (rtol, 1e-5) if rtol > 1e-4 else None


def _random(g: torch.Generator) -> Inputs:
    H, d = randint(g, 1, 4), randint(g, 1, 5)
    B, L = randint(g, 1, 3), randint(g, 1, 9)
    batched = pick(g, [True, True, False])
    kinds = [None, "causal", "padding", "b1", "head"] if batched else [None, "causal", "head"]
    return _case(B, L, H * d, H, mask=pick(g, kinds), biases=pick(g, ["all", "none", "omit", "out"]),
                 dtype=pick(g, [np.float32, np.float32, np.float64]), batched=batched)(g)


FAMILIES = (
    Family("biases", _case()),
    Family("no_biases", _case(biases="none")),
    Family("default_biases", _case(biases="omit")),
    Family("output_bias_only", _case(biases="out")),
    Family("causal_mask", _case(L=6, mask="causal")),
    Family("padding_mask", _case(L=7, mask="padding")),
    Family("per_head_mask", _case(L=6, C=12, H=3, mask="head")),
    Family("mask_b1", _case(L=6, mask="b1")),
    Family("one_key_per_query", _case(L=6, mask="one_key")),
    Family("one_head", _case(C=6, H=1, mask="causal")),
    Family("head_dim_one", _case(C=4, H=4, mask="causal")),
    Family("four_heads", _case(B=3, C=12, H=4, mask="head")),
    Family("one_token", _case(L=1)),
    Family("one_token_masked", _case(L=1, mask="causal")),
    Family("batch_one", _case(B=1, L=4, C=8, H=4)),
    Family("unbatched", _case(L=5, batched=False, biases="omit")),
    Family("unbatched_causal", _case(L=6, batched=False, biases="omit", mask="causal")),
    Family("unbatched_per_head_mask", _case(L=5, C=12, H=3, batched=False, mask="head")),
    Family("unbatched_float64", _case(L=5, batched=False, dtype=np.float64, mask="causal")),
    Family("large_scores", _case(L=6, C=8, H=2, integer=True, scale=2.0)),
    Family("large_scores_masked", _case(L=6, C=8, H=2, integer=True, scale=2.0, mask="head")),
    Family("large_scores_float64", _case(L=6, C=8, H=2, integer=True, scale=4.0, dtype=np.float64)),
    Family("large_scores_float64_masked", _case(L=6, C=8, H=2, integer=True, scale=4.0, dtype=np.float64,
                                                mask="causal")),
    Family("float64", _case(mask="head", dtype=np.float64)),
    Family("float64_no_biases", _case(biases="none", dtype=np.float64, mask="padding", L=6)),
    Family("long_sequence", _case(B=1, L=64, C=16, H=4, mask="causal")),
    Family("positional_mask_none", _case(positional=True)),
    Family("random", _random, draws=80),
)


def tolerance_for(case: spec_api.Case, item: str, dtype: torch.dtype,
                  expected: torch.Tensor | None) -> tuple[float, float] | None:
    """The dtype's rtol (or the case's), and its atol × max(1, max|expected|) of the item."""
    if expected is None or not expected.numel() or dtype not in spec_api.TOLERANCES:
        return None
    rtol, atol = case.inputs.tol or spec_api.TOLERANCES[dtype]
    return rtol, atol * max(1.0, float(expected.double().abs().max()))


# ---------------------------------------------------------------- known mistakes


def _mha(scale="head", split="transpose", merge="transpose", softmax_axis=-1, mask_mode="fill", stable=True,
         weights="in_out", out_bias=True, upcast=False, average=False, unbatched=True, fill=-1e9):
    """The right computation with one switch per known mistake."""
    def fn(x, w_q, w_k, w_v, w_o, num_heads, mask=None, b_q=None, b_k=None, b_v=None, b_o=None):
        if x.ndim == 2 and not unbatched:
            B, L, C = x.shape  # ValueError: the [L, C] input was not planned for
        squeeze = x.ndim == 2
        x = x[None] if squeeze else x
        B, L, C = x.shape
        H = num_heads
        d = C // H

        def proj(t, w, b):
            y = t @ (w.T if weights == "out_in" else w)
            return y if b is None else y + b

        def heads(t):
            if split == "reshape":
                return t.reshape(B, H, L, d)
            return t.reshape(B, L, H, d).transpose(0, 2, 1, 3)

        q, k, v = heads(proj(x, w_q, b_q)), heads(proj(x, w_k, b_k)), heads(proj(x, w_v, b_v))
        s = q @ k.transpose(0, 1, 3, 2)
        if scale == "head":
            s = s / (np.sqrt(d) if upcast else math.sqrt(d))
        elif scale == "embed":
            s = s / math.sqrt(C)
        if mask is not None and mask_mode in ("fill", "inverted", "zero"):
            keep = ~mask if mask_mode == "inverted" else mask
            s = np.where(keep, s, 0.0 if mask_mode == "zero" else fill)
        e = np.exp(s - s.max(axis=softmax_axis, keepdims=True)) if stable else np.exp(s)
        a = e / e.sum(axis=softmax_axis, keepdims=True)
        if mask is not None and mask_mode == "after":
            a = a * mask
        y = a @ v
        y = y.reshape(B, L, C) if merge == "reshape" else y.transpose(0, 2, 1, 3).reshape(B, L, C)
        out = y @ (w_o.T if weights == "out_in" else w_o)
        if out_bias and b_o is not None:
            out = out + b_o
        if average:
            a = a.mean(axis=1)
        return (out[0], a[0]) if squeeze else (out, a)
    return fn


MISTAKES = (
    Mistake("no_scaling", _mha(scale="none")),
    Mistake("scaled_by_embed_dim", _mha(scale="embed")),
    Mistake("split_without_transpose", _mha(split="reshape")),
    Mistake("merge_without_transpose", _mha(merge="reshape")),
    Mistake("softmax_over_queries", _mha(softmax_axis=-2), "finite_fill"),
    Mistake("softmax_over_queries", _mha(softmax_axis=-2, fill=-np.inf), "inf_fill"),
    Mistake("mask_inverted", _mha(mask_mode="inverted"), "finite_fill"),
    Mistake("mask_inverted", _mha(mask_mode="inverted", fill=-np.inf), "inf_fill"),
    Mistake("mask_filled_with_zero", _mha(mask_mode="zero")),
    Mistake("mask_after_softmax", _mha(mask_mode="after")),
    Mistake("unstable_softmax", _mha(stable=False)),
    Mistake("weights_transposed", _mha(weights="out_in")),
    Mistake("output_bias_ignored", _mha(out_bias=False)),
    Mistake("float32_upcast", _mha(upcast=True)),
    Mistake("weights_averaged", _mha(average=True)),
    Mistake("unbatched_unsupported", _mha(unbatched=False)),
)

# `kata check numpy-mha --bench`: a 512-wide layer over 256 tokens, causal.
BENCH = ("B = 4, L = 256, C = 512, H = 8, causal mask",
         lambda g: Inputs(args={"x": torch.randn(4, 256, 512, generator=g).numpy(),
                                **{n: (torch.randn(512, 512, generator=g) / 512 ** 0.5).numpy()
                                   for n in ("w_q", "w_k", "w_v", "w_o")},
                                "num_heads": 8, "mask": np.tril(np.ones((256, 256), dtype=bool))}))
