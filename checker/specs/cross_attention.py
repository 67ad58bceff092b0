"""Case families for `cross-attention`: Lq ≠ Lk both ways, mask shapes, fully-masked rows, odd
sizes, low precision, gradients w.r.t. x, context and every weight, and dims that do not divide."""
from __future__ import annotations

import math

import torch
import torch.nn as nn

from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._attention import (
    bad_dims, call_module, causal, compare_module, expected_module, linear_params, padding_mask, pick, projected_width,
    randint, randn, random_mask, spread_rows,
)


def _case(B=2, Lq=4, Lk=6, C=8, H=2, mask=None, dtype=torch.float32, scale=1.0, grads=True, tol=None, spread=None):
    """mask: None, "causal" ([Lq, Lk]), "2d" ([Lq, Lk]), "b1" ([B, 1, Lq, Lk]), "bh" ([B, H, Lq, Lk]),
    "padding" ([B, 1, 1, Lk]), "dead" / "dead_b1" (some query rows fully masked: no gradients), or
    "dead_padding" ([B, 1, Lq, Lk]: padded queries and padded keys hidden). spread: x at the
    fully-masked queries scaled until their scores span at least this much."""
    def make(g: torch.Generator) -> Inputs:
        args = {"x": randn(g, B, Lq, C, dtype=torch.float64, scale=scale),
                "context": randn(g, B, Lk, C, dtype=dtype, scale=scale)}
        shapes = {"2d": (Lq, Lk), "b1": (B, 1, Lq, Lk), "bh": (B, H, Lq, Lk), "padding": (B, 1, 1, Lk),
                  "dead": (B, H, Lq, Lk), "dead_b1": (B, 1, Lq, Lk)}
        if mask == "causal":
            args["mask"] = causal(Lq, Lk)
        elif mask == "dead_padding":
            args["mask"] = padding_mask(g, B, Lq, Lk)
        elif mask is not None:
            args["mask"] = random_mask(g, *shapes[mask], dead_rows=0.3 if mask.startswith("dead") else 0.0)
        params = linear_params(g, C)
        if spread is not None:
            dead = ~args["mask"].expand(B, 1, Lq, Lk)[:, 0].any(-1)  # (B, Lq): the queries with every key masked
            context = args["context"]
            args["x"] = spread_rows(lambda x: projected_width(x, context, params, H), dead, args["x"], spread)
        args["x"] = args["x"].to(dtype)
        dead = mask is not None and mask.startswith("dead")
        want_grads = grads and not dead  # fully-masked rows: the two conventions' gradients differ
        return Inputs(args=args, init={"embed_dim": C, "num_heads": H}, params=params,
                      grad_of=("x", "context") if want_grads else (),
                      probe=randn(g, B, Lq, C) if want_grads else None,
                      tol=tol, show={"embed_dim": C, "num_heads": H})
    return make


def _random(g: torch.Generator) -> Inputs:
    H = randint(g, 1, 4)
    C = H * randint(g, 1, 6)
    B, Lq, Lk = randint(g, 1, 3), randint(g, 1, 8), randint(g, 1, 10)
    return _case(B, Lq, Lk, C, H, mask=pick(g, [None, "2d", "b1", "bh", "padding"]))(g)


FAMILIES = (
    Family("no_mask", _case()),
    Family("lq_gt_lk", _case(Lq=7, Lk=3, mask="b1")),
    Family("same_length", _case(Lq=5, Lk=5, mask="bh")),
    Family("context_of_one", _case(Lq=4, Lk=1)),
    Family("query_of_one", _case(Lq=1, Lk=8, mask="padding")),
    Family("mask_2d", _case(mask="2d")),
    Family("mask_b1", _case(mask="b1")),
    Family("random_mask", _case(mask="bh"), draws=2),
    Family("key_padding", _case(Lk=7, mask="padding")),
    Family("causal_offset", _case(Lq=3, Lk=6, mask="causal")),
    Family("fully_masked_rows", _case(Lq=5, Lk=4, mask="dead"), draws=2),
    Family("fully_masked_rows_b1", _case(Lq=5, Lk=6, mask="dead_b1")),
    Family("fully_masked_float16", _case(Lq=5, Lk=6, mask="dead_padding", dtype=torch.float16, grads=False, spread=200.0)),
    Family("fully_masked_float64", _case(Lq=5, Lk=6, mask="dead", dtype=torch.float64)),
    Family("head_dim_one", _case(C=4, H=4, mask="bh")),
    Family("one_head", _case(C=6, H=1, mask="b1")),
    Family("four_heads", _case(B=3, C=12, H=4)),
    Family("float64", _case(mask="bh", dtype=torch.float64)),
    Family("float16", _case(mask="b1", dtype=torch.float16, grads=False)),
    Family("bfloat16", _case(mask="bh", dtype=torch.bfloat16, grads=False)),
    Family("large_scores", _case(mask="bh", scale=30.0, grads=False, tol=(1e-3, 1e-4))),
    Family("indivisible_dims", bad_dims(10, 4)),
    Family("device", _case(mask="b1"), track_device=True),
    Family("device_no_mask", _case(), track_device=True),
    Family("random", _random, draws=85),
)

call = call_module
expected = expected_module
compare = compare_module


# ---------------------------------------------------------------- known mistakes


class _Cross(nn.Module):
    """The right computation with switches, one per known mistake."""

    kv_from_x = False
    q_from_context = False
    split_without_permute = False
    merge_without_permute = False
    scale_by = "head_dim"  # "head_dim" | "embed_dim" | "none"
    skip_w_o = False
    detach_weights = False
    invert_mask = False
    fill: float | None = None  # None: finfo.min
    additive = False  # the mask added to the scores instead of filling them
    softmax_dim = -1
    naive_softmax = False
    check_dims = True

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        if self.check_dims:
            assert embed_dim % num_heads == 0
        self.embed_dim, self.num_heads, self.head_dim = embed_dim, num_heads, embed_dim // num_heads
        self.w_q, self.w_k = nn.Linear(embed_dim, embed_dim), nn.Linear(embed_dim, embed_dim)
        self.w_v, self.w_o = nn.Linear(embed_dim, embed_dim), nn.Linear(embed_dim, embed_dim)

    def split(self, t):
        B, L, C = t.shape
        if self.split_without_permute:
            return t.reshape(B, self.num_heads, L, self.head_dim)
        return t.view(B, L, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, x, context, mask=None):
        B, Lq, C = x.shape
        q = self.split(self.w_q(context if self.q_from_context else x))
        k = self.split(self.w_k(x if self.kv_from_x else context))
        v = self.split(self.w_v(x if self.kv_from_x else context))
        scale = {"head_dim": math.sqrt(self.head_dim), "embed_dim": math.sqrt(C), "none": 1.0}[self.scale_by]
        scores = q @ k.transpose(-2, -1) / scale
        if mask is not None:
            fill = torch.finfo(scores.dtype).min if self.fill is None else self.fill
            hidden = mask if self.invert_mask else ~mask
            scores = scores + hidden.to(scores.dtype) * fill if self.additive else scores.masked_fill(hidden, fill)
        if self.naive_softmax:
            weights = scores.exp() / scores.exp().sum(dim=-1, keepdim=True)
        else:
            weights = torch.softmax(scores, dim=self.softmax_dim)
        y = (weights.detach() if self.detach_weights else weights) @ v
        y = y.reshape(B, -1, C) if self.merge_without_permute else y.transpose(1, 2).reshape(B, -1, C)
        return (y if self.skip_w_o else self.w_o(y)), weights


def _variant(**switches):
    return type("Variant", (_Cross,), switches)


MISTAKES = (
    Mistake("kv_from_x", _variant(kv_from_x=True)),
    Mistake("q_from_context", _variant(q_from_context=True)),
    Mistake("split_without_permute", _variant(split_without_permute=True)),
    Mistake("merge_without_permute", _variant(merge_without_permute=True)),
    Mistake("scaled_by_embed_dim", _variant(scale_by="embed_dim")),
    Mistake("no_scaling", _variant(scale_by="none")),
    Mistake("no_w_o", _variant(skip_w_o=True)),
    Mistake("weights_detached", _variant(detach_weights=True)),
    Mistake("mask_inverted", _variant(invert_mask=True)),
    Mistake("softmax_over_queries", _variant(softmax_dim=-2)),
    Mistake("softmax_over_heads", _variant(softmax_dim=1)),
    Mistake("nan_fully_masked", _variant(fill=float("-inf"))),
    Mistake("additive_mask", _variant(additive=True)),
    Mistake("naive_softmax", _variant(naive_softmax=True)),
    Mistake("no_divisibility_check", _variant(check_dims=False)),
)

# `kata check cross-attention --bench`: 128 queries over a 512-token context.
BENCH = ("B = 4, Lq = 128, Lk = 512, C = 256, H = 8",
         lambda g: Inputs(args={"x": torch.randn(4, 128, 256, generator=g), "context": torch.randn(4, 512, 256, generator=g)},
                          init={"embed_dim": 256, "num_heads": 8}, grad_of=("x",)))
