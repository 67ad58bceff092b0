"""Case families for `mha`: mask shapes, fully-masked rows, head_dim 1, one head, L = 1, low
precision, huge scores, gradients w.r.t. x and every weight, and dims that do not divide."""
from __future__ import annotations

import math

import torch
import torch.nn as nn

from checker.spec import Family, Inputs, Mistake
from checker.specs._attention import (
    bad_dims, call_module, causal, compare_module, expected_module, linear_params, pick, randint, randn, random_mask,
)


def _case(B=2, L=5, C=8, H=2, mask=None, dtype=torch.float32, scale=1.0, grads=True, tol=None):
    """mask: None, "causal" ([L, L]), "causal_b1" ([B, 1, L, L]), "bh" ([B, H, L, L]),
    "padding" ([B, 1, 1, L]), or "dead" / "dead_b1" (some query rows fully masked: no gradients)."""
    def make(g: torch.Generator) -> Inputs:
        args = {"x": randn(g, B, L, C, dtype=dtype, scale=scale)}
        shapes = {"bh": (B, H, L, L), "padding": (B, 1, 1, L), "dead": (B, H, L, L), "dead_b1": (B, 1, L, L)}
        if mask == "causal":
            args["mask"] = causal(L)
        elif mask == "causal_b1":
            args["mask"] = causal(L).expand(B, 1, L, L).clone()
        elif mask is not None:
            args["mask"] = random_mask(g, *shapes[mask], dead_rows=0.3 if mask.startswith("dead") else 0.0)
        dead = mask is not None and mask.startswith("dead")
        want_grads = grads and not dead  # fully-masked rows: the two conventions' gradients differ
        return Inputs(args=args, init={"embed_dim": C, "num_heads": H}, params=linear_params(g, C),
                      grad_of=("x",) if want_grads else (), probe=randn(g, B, L, C) if want_grads else None,
                      tol=tol, show={"embed_dim": C, "num_heads": H})
    return make


def _random(g: torch.Generator) -> Inputs:
    H = randint(g, 1, 4)
    C = H * randint(g, 1, 6)
    B, L = randint(g, 1, 3), randint(g, 1, 9)
    return _case(B, L, C, H, mask=pick(g, [None, "causal", "causal_b1", "bh", "padding"]))(g)


FAMILIES = (
    Family("no_mask", "no mask, with gradients w.r.t. x and every weight", _case()),
    Family("causal_mask", "a causal [L, L] mask", _case(L=6, mask="causal")),
    Family("causal_mask_b1", "a causal mask of shape [B, 1, L, L]", _case(L=6, mask="causal_b1")),
    Family("random_mask", "a random [B, H, L, L] mask: each head its own", _case(L=6, mask="bh"), draws=2),
    Family("key_padding", "a [B, 1, 1, L] padding mask", _case(L=7, mask="padding")),
    Family("fully_masked_rows", "some query rows have every key masked ([B, H, L, L] mask): finite out, no NaN",
           _case(L=6, mask="dead"), draws=2),
    Family("fully_masked_rows_b1", "fully-masked rows with a [B, 1, L, L] mask", _case(L=6, mask="dead_b1")),
    Family("head_dim_one", "embed_dim = num_heads = 4: head_dim 1", _case(C=4, H=4, mask="causal")),
    Family("one_head", "num_heads = 1: head_dim = embed_dim", _case(C=6, H=1, mask="causal")),
    Family("four_heads", "4 heads of 3: the split and merge of heads must line up", _case(B=3, L=5, C=12, H=4, mask="bh")),
    Family("seq_len_one", "L = 1", _case(L=1)),
    Family("batch_one", "B = 1", _case(B=1, L=4, C=8, H=4)),
    Family("float64", "float64 input and weights", _case(mask="bh", dtype=torch.float64)),
    Family("float16", "float16 input and weights (forward only)", _case(mask="causal", dtype=torch.float16, grads=False)),
    Family("bfloat16", "bfloat16 input and weights (forward only)", _case(mask="bh", dtype=torch.bfloat16, grads=False)),
    Family("large_scores", "x scaled by 30: scores in the hundreds (forward only)", _case(L=6, mask="bh", scale=30.0, grads=False, tol=(1e-3, 1e-4))),
    Family("indivisible_dims", "embed_dim 10 with 4 heads: __init__ must raise", bad_dims(10, 4)),
    Family("indivisible_dims_2", "embed_dim 6 with 4 heads: __init__ must raise", bad_dims(6, 4)),
    Family("device", "tensors you create follow the inputs' device (checked as if the inputs were on a GPU)",
           _case(L=5, mask="causal"), track_device=True),
    Family("random", "random sizes, heads and mask shapes, with gradients", _random, draws=85),
)

call = call_module
expected = expected_module
compare = compare_module


# ---------------------------------------------------------------- known mistakes


class _MHA(nn.Module):
    """The right computation with switches, one per known mistake."""

    split_without_permute = False
    merge_without_permute = False
    scale_by_embed_dim = False
    skip_w_o = False
    v_from_w_k = False
    detach_weights = False
    invert_mask = False

    def __init__(self, embed_dim, num_heads):
        super().__init__()
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
        scores = q @ k.transpose(-2, -1) / math.sqrt(C if self.scale_by_embed_dim else self.head_dim)
        if mask is not None:
            scores = scores.masked_fill(mask if self.invert_mask else ~mask, torch.finfo(scores.dtype).min)
        weights = torch.softmax(scores, dim=-1)
        y = (weights.detach() if self.detach_weights else weights) @ v
        y = y.reshape(B, L, C) if self.merge_without_permute else y.transpose(1, 2).reshape(B, L, C)
        return (y if self.skip_w_o else self.w_o(y)), weights


def _variant(**switches):
    return type("Variant", (_MHA,), switches)


MISTAKES = (
    Mistake("heads split by reshape(B, H, L, hd) without the permute",
            "split with view(B, L, H, hd) then transpose(1, 2): the heads are slices of the last dim",
            _variant(split_without_permute=True)),
    Mistake("heads merged without permuting back", "transpose(1, 2) back to [B, L, H, hd] before reshape(B, L, C)",
            _variant(merge_without_permute=True)),
    Mistake("scores scaled by √embed_dim instead of √head_dim", "each head is head_dim wide: divide by math.sqrt(head_dim)",
            _variant(scale_by_embed_dim=True)),
    Mistake("output projection w_o missing", "apply self.w_o to the merged heads", _variant(skip_w_o=True)),
    Mistake("V projected with w_k", "v = self.w_v(x)", _variant(v_from_w_k=True)),
    Mistake("attention weights detached before the matmul", "keep the weights in the graph: no .detach() "
            "(the gradients of w_q and w_k flow through them)", _variant(detach_weights=True)),
    Mistake("mask inverted", "True means 'may attend': fill where the mask is False, masked_fill(~mask, …)",
            _variant(invert_mask=True)),
)

# `kata check mha --bench`: forward and backward of a 256-wide block over 256 tokens.
BENCH = ("B = 4, L = 256, C = 256, H = 8, causal mask",
         lambda g: Inputs(args={"x": torch.randn(4, 256, 256, generator=g), "mask": torch.ones(256, 256, dtype=torch.bool).tril()},
                          init={"embed_dim": 256, "num_heads": 8}, grad_of=("x",)))
