"""Case families for `attention`: every mask shape, fully-masked rows, odd sizes, low precision,
huge scores, and dropout in train and eval mode."""
from __future__ import annotations

import math

import torch
import torch.nn as nn

from checker import spec as spec_api
from checker.spec import Family, Inputs, Mistake
from checker.specs._attention import (
    causal, compare_dropout, eval_mode, expected_in_float32, is_train_dropout, pick, randint, randn, random_mask, with_zero_rows,
)


def _case(B=2, H=2, Lq=5, Lk=None, D=8, Dv=None, mask=None, dtype=torch.float32, scale=1.0, dropout_p=0.0,
          train=False, grads=False, tol=None):
    """mask: None, "causal" ([Lq, Lk]), "2d" ([Lq, Lk]), "b1" ([B, 1, Lq, Lk]), "bh" ([B, H, Lq, Lk]),
    "padding" ([B, 1, 1, Lk]), or "dead" / "dead_b1" (some query rows fully masked)."""
    def make(g: torch.Generator) -> Inputs:
        lk, dv = Lk or Lq, Dv or D
        args = {"q": randn(g, B, H, Lq, D, dtype=dtype, scale=scale), "k": randn(g, B, H, lk, D, dtype=dtype, scale=scale),
                "v": randn(g, B, H, lk, dv, dtype=dtype)}
        shapes = {"2d": (Lq, lk), "b1": (B, 1, Lq, lk), "bh": (B, H, Lq, lk), "padding": (B, 1, 1, lk),
                  "dead": (B, H, Lq, lk), "dead_b1": (B, 1, Lq, lk)}
        if mask == "causal":
            args["mask"] = causal(Lq, lk)
        elif mask is not None:
            args["mask"] = random_mask(g, *shapes[mask], dead_rows=0.3 if mask.startswith("dead") else 0.0)
        probe = randn(g, B, H, Lq, dv, dtype=dtype) if grads else None
        return Inputs(args=args, init={"dropout_p": dropout_p}, train=train, probe=probe,
                      grad_of=("q", "k", "v") if grads else (), tol=tol,
                      show={"dropout_p": dropout_p} if dropout_p else {})
    return make


def _very_negative(g: torch.Generator) -> Inputs:
    """float64 scores all near -2e4: a fill of -1e4 would outweigh every visible key."""
    B, H, L, D = 2, 2, 5, 4
    q = -100 + randn(g, B, H, L, D, dtype=torch.float64)
    k = 100 + randn(g, B, H, L, D, dtype=torch.float64)
    v = randn(g, B, H, L, D, dtype=torch.float64)
    return Inputs(args={"q": q, "k": k, "v": v, "mask": random_mask(g, B, H, L, L, keep=0.5)})


def _random(g: torch.Generator) -> Inputs:
    B, H, Lq, D = randint(g, 1, 3), randint(g, 1, 4), randint(g, 1, 9), randint(g, 1, 16)
    Lk = pick(g, [Lq, randint(g, 1, 9)])
    mask = pick(g, [None, "causal" if Lq <= Lk else None, "2d", "b1", "bh", "padding"])
    return _case(B, H, Lq, Lk, D, randint(g, 1, 12), mask=mask, grads=True)(g)


FAMILIES = (
    Family("no_mask", "no mask: softmax(q kᵀ / √D) v", _case()),
    Family("random_mask", "a random bool mask of shape [B, H, Lq, Lk] (True = may attend)", _case(mask="bh"), draws=3),
    Family("causal_mask", "a causal [L, L] mask broadcast over batch and heads", _case(Lq=6, mask="causal")),
    Family("mask_2d", "a random [Lq, Lk] mask broadcast over batch and heads", _case(Lq=4, Lk=6, mask="2d")),
    Family("mask_b1", "a random [B, 1, Lq, Lk] mask broadcast over heads", _case(Lq=5, Lk=7, mask="b1")),
    Family("key_padding", "a [B, 1, 1, Lk] padding mask hiding some keys from every query", _case(Lk=7, mask="padding")),
    Family("fully_masked_rows", "some query rows have every key masked: zero or uniform weights, never NaN",
           _case(Lq=6, mask="dead"), draws=3),
    Family("fully_masked_rows_b1", "fully-masked rows with a [B, 1, Lq, Lk] mask", _case(Lq=6, Lk=4, mask="dead_b1")),
    Family("fully_masked_float16", "fully-masked rows in float16: still finite",
           _case(Lq=6, mask="dead", dtype=torch.float16)),
    Family("lq_ne_lk", "3 queries over 7 keys", _case(Lq=3, Lk=7, mask="bh")),
    Family("lq_gt_lk", "7 queries over 2 keys", _case(Lq=7, Lk=2)),
    Family("head_dim_one", "D = 1: the scale √D is 1", _case(D=1, mask="bh")),
    Family("dv_ne_d", "values of another width than the keys (Dv = 3, D = 8)", _case(D=8, Dv=3)),
    Family("seq_len_one", "one query and one key (L = 1)", _case(Lq=1)),
    Family("one_head", "H = 1, B = 1", _case(B=1, H=1, Lq=6, mask="causal")),
    Family("float64", "float64 in, float64 out", _case(mask="bh", dtype=torch.float64)),
    Family("float16", "float16 in, float16 out", _case(mask="bh", dtype=torch.float16)),
    Family("bfloat16", "bfloat16 in, bfloat16 out", _case(mask="causal", dtype=torch.bfloat16)),
    Family("large_scores", "q and k scaled by 30: scores in the hundreds, exp() overflows without the max trick",
           _case(Lq=6, D=16, mask="bh", scale=30.0), draws=2),
    Family("very_negative_scores", "float64 scores near -2e4 with a mask: the fill must be far below every score",
           _very_negative),
    Family("gradients", "gradients w.r.t. q, k and v through a masked softmax", _case(Lq=5, Lk=6, mask="bh", grads=True)),
    Family("dropout_eval", "dropout_p = 0.5 in eval mode: no dropout at all", _case(mask="bh", dropout_p=0.5)),
    Family("dropout_train", "dropout_p = 0.1 in train mode: weights zeroed or scaled by 1/(1-p), after softmax",
           _case(B=2, H=4, Lq=16, D=4, scale=0.5, dropout_p=0.1, train=True), draws=2),
    Family("dropout_train_half", "dropout_p = 0.5 in train mode, with a causal mask",
           _case(B=2, H=4, Lq=24, D=4, scale=0.5, mask="causal", dropout_p=0.5, train=True)),
    Family("device", "tensors you create follow the inputs' device (checked as if the inputs were on a GPU)",
           _case(Lq=5, mask="dead"), track_device=True),
    Family("random", "random sizes and mask shapes, with gradients", _random, draws=75),
)


def expected(kata, entry, inputs, device):
    if is_train_dropout(inputs):
        return [spec_api.call(kata, entry, eval_mode(inputs), device)]  # the weights before dropout
    outcome = expected_in_float32(lambda i: spec_api.call(kata, entry, i, device), inputs)
    return with_zero_rows(outcome, inputs, device, module=False)


def compare(kata, case, expected, got):
    return compare_dropout(kata, case, expected, got) if is_train_dropout(case.inputs) else None


# ---------------------------------------------------------------- known mistakes


class _Attention(nn.Module):
    """The right computation with switches, one per known mistake."""

    scale_by = "sqrt"  # "sqrt" | "none" | "D"
    fill: float | None = None  # None: finfo.min
    invert = False
    softmax_dim = -1
    dropout_first = False
    naive_softmax = False

    def __init__(self, dropout_p: float = 0.0):
        super().__init__()
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, q, k, v, mask=None):
        D = q.size(-1)
        scores = q @ k.transpose(-2, -1) / {"sqrt": math.sqrt(D), "none": 1.0, "D": D}[self.scale_by]
        if mask is not None:
            fill = torch.finfo(scores.dtype).min if self.fill is None else self.fill
            scores = scores.masked_fill(mask if self.invert else ~mask, fill)
        if self.dropout_first:
            scores = self.dropout(scores)
        if self.naive_softmax:
            weights = scores.exp() / scores.exp().sum(dim=-1, keepdim=True)
        else:
            weights = torch.softmax(scores, dim=self.softmax_dim)
        if not self.dropout_first:
            weights = self.dropout(weights)
        return weights @ v, weights


def _variant(**switches):
    return type("Variant", (_Attention,), switches)


MISTAKES = (
    Mistake("no √D scaling", "divide the scores by math.sqrt(q.size(-1)) before the softmax", _variant(scale_by="none")),
    Mistake("scores divided by D instead of √D", "the scale is 1/√D: use math.sqrt(D)", _variant(scale_by="D")),
    Mistake("mask inverted", "True means 'may attend': fill where the mask is False, masked_fill(~mask, …)",
            _variant(invert=True)),
    Mistake("softmax over the queries (dim=-2)", "softmax over the keys, the last dim: softmax(scores, dim=-1)",
            _variant(softmax_dim=-2)),
    Mistake("a query with every key masked comes out NaN (-inf fill?)", "fill with a large finite negative such as "
            "torch.finfo(scores.dtype).min, so a row with every key masked stays finite (and a hand-written softmax "
            "must subtract the row max)", _variant(fill=float("-inf"))),
    Mistake("softmax without subtracting the max: exp() overflows", "use torch.softmax, or subtract "
            "scores.amax(-1, keepdim=True) before exp()", _variant(naive_softmax=True)),
    Mistake("fill of -1e4 is not far enough below the scores", "use torch.finfo(scores.dtype).min (or -1e9 in "
            "float32): the fill must be below every real score", _variant(fill=-1e4)),
    Mistake("dropout applied to the scores before the softmax", "apply dropout to the weights after the softmax",
            _variant(dropout_first=True)),
)

# `kata check attention --bench`: a causal self-attention block of realistic size.
BENCH = ("B = 2, H = 8, L = 512, D = 64, causal mask",
         lambda g: Inputs(args={"q": torch.randn(2, 8, 512, 64, generator=g), "k": torch.randn(2, 8, 512, 64, generator=g),
                                "v": torch.randn(2, 8, 512, 64, generator=g),
                                "mask": torch.ones(512, 512, dtype=torch.bool).tril()}, init={"dropout_p": 0.0}))
