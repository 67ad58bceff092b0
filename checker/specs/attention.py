"""Case families for `attention`: every mask shape, fully-masked rows, odd sizes, low precision,
huge scores, and dropout in train and eval mode."""
from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._attention import (
    causal, compare_dropout, eval_mode, expected_in_float32, is_train_dropout, pick, randint, randn, random_mask,
    spread_rows, with_zero_rows,
)


def _case(B=2, H=2, Lq=5, Lk=None, D=8, Dv=None, mask=None, dtype=torch.float32, scale=1.0, dropout_p=0.0,
          train=False, grads=False, tol=None, spread=None):
    """mask: None, "causal" ([Lq, Lk]), "2d" ([Lq, Lk]), "b1" ([B, 1, Lq, Lk]), "bh" ([B, H, Lq, Lk]),
    "padding" ([B, 1, 1, Lk]), or "dead" / "dead_b1" (some query rows fully masked). spread: the
    fully-masked rows' scores made to span at least this much (their q rows scaled up)."""
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
        if spread is not None:
            k = args["k"].double()
            dead = ~args["mask"].expand(B, H, Lq, lk).any(-1)  # (B, H, Lq)

            def width(q):
                s = q @ k.transpose(-2, -1) / math.sqrt(D)  # (B, H, Lq, Lk)
                return s.amax(-1) - s.amin(-1)

            args["q"] = spread_rows(width, dead, args["q"].double(), spread).to(dtype)
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
    Family("no_mask", _case()),
    Family("random_mask", _case(mask="bh"), draws=3),
    Family("causal_mask", _case(Lq=6, mask="causal")),
    Family("mask_2d", _case(Lq=4, Lk=6, mask="2d")),
    Family("mask_b1", _case(Lq=5, Lk=7, mask="b1")),
    Family("key_padding", _case(Lk=7, mask="padding")),
    Family("fully_masked_rows", _case(Lq=6, mask="dead"), draws=3),
    Family("fully_masked_rows_b1", _case(Lq=6, Lk=4, mask="dead_b1")),
    Family("fully_masked_float16", _case(Lq=6, mask="dead", dtype=torch.float16)),
    Family("fully_masked_float16_large_scores", _case(Lq=6, mask="dead", dtype=torch.float16, spread=200.0)),
    Family("fully_masked_large_scores", _case(Lq=6, mask="dead", spread=2000.0)),
    Family("lq_ne_lk", _case(Lq=3, Lk=7, mask="bh")),
    Family("lq_gt_lk", _case(Lq=7, Lk=2)),
    Family("head_dim_one", _case(D=1, mask="bh")),
    Family("dv_ne_d", _case(D=8, Dv=3)),
    Family("seq_len_one", _case(Lq=1)),
    Family("one_head", _case(B=1, H=1, Lq=6, mask="causal")),
    Family("float64", _case(mask="bh", dtype=torch.float64)),
    Family("float16", _case(mask="bh", dtype=torch.float16)),
    Family("bfloat16", _case(mask="causal", dtype=torch.bfloat16)),
    Family("large_scores", _case(Lq=6, D=16, mask="bh", scale=30.0), draws=2),
    Family("very_negative_scores", _very_negative),
    Family("gradients", _case(Lq=5, Lk=6, mask="bh", grads=True)),
    Family("dropout_eval", _case(mask="bh", dropout_p=0.5)),
    Family("dropout_train", _case(B=2, H=4, Lq=16, D=4, scale=0.5, dropout_p=0.1, train=True), draws=2),
    Family("dropout_train_half", _case(B=2, H=4, Lq=24, D=4, scale=0.5, mask="causal", dropout_p=0.5, train=True)),
    Family("fully_masked_float64", _case(Lq=6, mask="dead", dtype=torch.float64)),  # late: the namer examines the earlier families first
    Family("device", _case(Lq=5, mask="dead"), track_device=True),
    Family("device_no_mask", _case(Lq=5), track_device=True),
    Family("random", _random, draws=75),
)


def expected(kata, entry, inputs, device):
    if is_train_dropout(inputs):
        return [spec_api.call(kata, entry, eval_mode(inputs), device)]  # the weights before dropout
    return expected_in_float32(lambda i: spec_api.call(kata, entry, i, device), inputs,
                               lambda outcome, i: with_zero_rows(outcome, i, device, module=False))


def compare(kata, case, expected, got):
    return compare_dropout(kata, case, expected, got) if is_train_dropout(case.inputs) else None


# ---------------------------------------------------------------- known mistakes


class _Attention(nn.Module):
    """The right computation with switches, one per known mistake."""

    scale_by = "sqrt"  # "sqrt" | "none" | "D" | "sqrt_dv"
    fill: float | None = None  # None: finfo.min
    additive = False  # the mask added to the scores (Hugging Face's additive mask) instead of filling them
    fill_in_dtype = False  # the fill made a tensor of the scores' dtype first: -1e9 becomes -inf in float16
    invert = False
    softmax_dim = -1
    dropout_first = False
    dropout_always = False  # F.dropout without training=self.training
    dropout_unscaled = False  # survivors not scaled by 1/(1-p)
    return_before_dropout = False
    naive_softmax = False
    mask_after_softmax = False  # masked weights zeroed after an unmasked softmax: rows no longer sum to 1

    def __init__(self, dropout_p: float = 0.0):
        super().__init__()
        self.p = dropout_p
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, q, k, v, mask=None):
        D = q.size(-1)
        scale = {"sqrt": math.sqrt(D), "none": 1.0, "D": D, "sqrt_dv": math.sqrt(v.size(-1))}[self.scale_by]
        scores = q @ k.transpose(-2, -1) / scale
        if mask is not None and not self.mask_after_softmax:
            fill = torch.finfo(scores.dtype).min if self.fill is None else self.fill
            fill = torch.tensor(fill, dtype=scores.dtype, device=scores.device) if self.fill_in_dtype else fill
            hidden = mask if self.invert else ~mask
            scores = scores + hidden.to(scores.dtype) * fill if self.additive else scores.masked_fill(hidden, fill)
        if self.dropout_first:
            scores = self.dropout(scores)
        if self.naive_softmax:
            weights = scores.exp() / scores.exp().sum(dim=-1, keepdim=True)
        else:
            weights = torch.softmax(scores, dim=self.softmax_dim)
        if mask is not None and self.mask_after_softmax:
            weights = weights.masked_fill(~mask, 0.0)
        before = weights
        if self.dropout_always:
            weights = F.dropout(weights, p=self.p)
        elif self.dropout_unscaled:
            weights = weights * (torch.rand_like(weights) >= self.p) if self.training else weights
        elif not self.dropout_first:
            weights = self.dropout(weights)
        return weights @ v, (before if self.return_before_dropout else weights)


def _variant(**switches):
    return type("Variant", (_Attention,), switches)


MISTAKES = (
    Mistake("no_scaling", _variant(scale_by="none")),
    Mistake("scaled_by_d", _variant(scale_by="D")),
    Mistake("scaled_by_dv", _variant(scale_by="sqrt_dv")),
    Mistake("mask_inverted", _variant(invert=True)),
    Mistake("softmax_over_queries", _variant(softmax_dim=-2)),
    Mistake("softmax_over_heads", _variant(softmax_dim=1)),
    Mistake("nan_fully_masked", _variant(fill=float("-inf"))),
    Mistake("additive_mask", _variant(additive=True)),
    Mistake("mask_after_softmax", _variant(mask_after_softmax=True)),
    Mistake("naive_softmax", _variant(naive_softmax=True)),
    Mistake("fill_too_small", _variant(fill=-1e4)),
    Mistake("fill_minus_1e9_in_float16", _variant(fill=-1e9, fill_in_dtype=True)),
    Mistake("dropout_before_softmax", _variant(dropout_first=True)),
    Mistake("dropout_in_eval", _variant(dropout_always=True)),
    Mistake("dropout_unscaled", _variant(dropout_unscaled=True)),
    Mistake("returns_weights_before_dropout", _variant(return_before_dropout=True)),
)

# `kata check attention --bench`: a causal self-attention block of realistic size.
BENCH = ("B = 2, H = 8, L = 512, D = 64, causal mask",
         lambda g: Inputs(args={"q": torch.randn(2, 8, 512, 64, generator=g), "k": torch.randn(2, 8, 512, 64, generator=g),
                                "v": torch.randn(2, 8, 512, 64, generator=g),
                                "mask": torch.ones(512, 512, dtype=torch.bool).tril()}, init={"dropout_p": 0.0}))
