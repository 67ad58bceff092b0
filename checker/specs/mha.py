"""Case families for `mha`: mask shapes, fully-masked rows, head_dim 1, one head, L = 1, low
precision, huge scores, gradients w.r.t. x and every weight, and dims that do not divide."""
from __future__ import annotations

import math

import torch
import torch.nn as nn

from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._attention import (
    bad_dims, call_module, causal, compare_module, expected_module, linear_params, padding_mask, pick, projected_width,
    randint, randn, random_mask, spread_rows,
)


def _case(B=2, L=5, C=8, H=2, mask=None, dtype=torch.float32, scale=1.0, grads=True, tol=None, spread=None):
    """mask: None, "causal" ([L, L]), "causal_b1" ([B, 1, L, L]), "bh" ([B, H, L, L]),
    "padding" ([B, 1, 1, L]), "dead" / "dead_b1" (some query rows fully masked: no gradients), or
    "dead_padding" ([B, 1, L, L]: padded positions hidden as queries and as keys). spread: x at the
    fully-masked positions scaled until their scores span at least this much."""
    def make(g: torch.Generator) -> Inputs:
        args = {"x": randn(g, B, L, C, dtype=torch.float64, scale=scale)}
        shapes = {"bh": (B, H, L, L), "padding": (B, 1, 1, L), "dead": (B, H, L, L), "dead_b1": (B, 1, L, L)}
        if mask == "causal":
            args["mask"] = causal(L)
        elif mask == "causal_b1":
            args["mask"] = causal(L).expand(B, 1, L, L).clone()
        elif mask == "dead_padding":
            args["mask"] = padding_mask(g, B, L)
        elif mask is not None:
            args["mask"] = random_mask(g, *shapes[mask], dead_rows=0.3 if mask.startswith("dead") else 0.0)
        params = linear_params(g, C)
        if spread is not None:
            dead = ~args["mask"].expand(B, 1, L, L)[:, 0].any(-1)  # (B, L): the queries with every key masked
            args["x"] = spread_rows(lambda x: projected_width(x, None, params, H), dead, args["x"], spread)
        args["x"] = args["x"].to(dtype)
        dead = mask is not None and mask.startswith("dead")
        want_grads = grads and not dead  # fully-masked rows: the two conventions' gradients differ
        return Inputs(args=args, init={"embed_dim": C, "num_heads": H}, params=params,
                      grad_of=("x",) if want_grads else (), probe=randn(g, B, L, C) if want_grads else None,
                      tol=tol, show={"embed_dim": C, "num_heads": H})
    return make


def _random(g: torch.Generator) -> Inputs:
    H = randint(g, 1, 4)
    C = H * randint(g, 1, 6)
    B, L = randint(g, 1, 3), randint(g, 1, 9)
    return _case(B, L, C, H, mask=pick(g, [None, "causal", "causal_b1", "bh", "padding"]))(g)


FAMILIES = (
    Family("no_mask", _case()),
    Family("causal_mask", _case(L=6, mask="causal")),
    Family("causal_mask_b1", _case(L=6, mask="causal_b1")),
    Family("random_mask", _case(L=6, mask="bh"), draws=2),
    Family("key_padding", _case(L=7, mask="padding")),
    Family("fully_masked_rows", _case(L=6, mask="dead"), draws=2),
    Family("fully_masked_rows_b1", _case(L=6, mask="dead_b1")),
    Family("fully_masked_float16", _case(L=6, mask="dead_padding", dtype=torch.float16, grads=False, spread=200.0)),
    Family("fully_masked_float64", _case(L=6, mask="dead", dtype=torch.float64)),
    Family("head_dim_one", _case(C=4, H=4, mask="causal")),
    Family("one_head", _case(C=6, H=1, mask="causal")),
    Family("four_heads", _case(B=3, L=5, C=12, H=4, mask="bh")),
    Family("seq_len_one", _case(L=1)),
    Family("batch_one", _case(B=1, L=4, C=8, H=4)),
    Family("float64", _case(mask="bh", dtype=torch.float64)),
    Family("float16", _case(mask="causal", dtype=torch.float16, grads=False)),
    Family("bfloat16", _case(mask="bh", dtype=torch.bfloat16, grads=False)),
    Family("large_scores", _case(L=6, mask="bh", scale=30.0, grads=False, tol=(1e-3, 1e-4))),
    Family("indivisible_dims", bad_dims(10, 4)),
    Family("indivisible_dims_2", bad_dims(6, 4)),
    Family("device", _case(L=5, mask="causal"), track_device=True),
    Family("device_no_mask", _case(L=5), track_device=True),
    Family("random", _random, draws=85),
)

call = call_module
expected = expected_module
compare = compare_module


# ---------------------------------------------------------------- known mistakes


class _MHA(nn.Module):
    """The right computation with switches, one per known mistake."""

    split_without_permute = False
    merge_without_permute = False
    scale_by = "head_dim"  # "head_dim" | "embed_dim" | "none"
    skip_w_o = False
    v_from_w_k = False
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

    def forward(self, x, mask=None):
        B, L, C = x.shape
        q, k = self.split(self.w_q(x)), self.split(self.w_k(x))
        v = self.split((self.w_k if self.v_from_w_k else self.w_v)(x))
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
        y = y.reshape(B, L, C) if self.merge_without_permute else y.transpose(1, 2).reshape(B, L, C)
        return (y if self.skip_w_o else self.w_o(y)), weights


def _variant(**switches):
    return type("Variant", (_MHA,), switches)


MISTAKES = (
    Mistake("split_without_permute", _variant(split_without_permute=True)),
    Mistake("merge_without_permute", _variant(merge_without_permute=True)),
    Mistake("scaled_by_embed_dim", _variant(scale_by="embed_dim")),
    Mistake("no_scaling", _variant(scale_by="none")),
    Mistake("no_w_o", _variant(skip_w_o=True)),
    Mistake("v_from_w_k", _variant(v_from_w_k=True)),
    Mistake("weights_detached", _variant(detach_weights=True)),
    Mistake("mask_inverted", _variant(invert_mask=True)),
    Mistake("softmax_over_queries", _variant(softmax_dim=-2)),
    Mistake("softmax_over_heads", _variant(softmax_dim=1)),
    Mistake("nan_fully_masked", _variant(fill=float("-inf"))),
    Mistake("additive_mask", _variant(additive=True)),
    Mistake("naive_softmax", _variant(naive_softmax=True)),
    Mistake("no_divisibility_check", _variant(check_dims=False)),
)

# `kata check mha --bench`: forward and backward of a 256-wide block over 256 tokens.
BENCH = ("B = 4, L = 256, C = 256, H = 8, causal mask",
         lambda g: Inputs(args={"x": torch.randn(4, 256, 256, generator=g), "mask": torch.ones(256, 256, dtype=torch.bool).tril()},
                          init={"embed_dim": 256, "num_heads": 8}, grad_of=("x",)))
