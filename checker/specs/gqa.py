"""Case families for `gqa`: every kind of grouping (one kv head, as many as query heads, groups of
2, 3 and 4, so that tiling the kv heads instead of interleaving them fails), the mask shapes,
fully-masked rows in float32 and float16, head_dim 1, low precision, gradients w.r.t. x and every
weight, and both divisibility failures."""
from __future__ import annotations

import math

import torch
import torch.nn as nn

from checker.text.i18n import tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome, ParamsError
from checker.specs._attention import (
    BAD_DIMS, RAISES, call_module, causal, expected_module, linear_params, pick, randint, randn, random_mask,
)


def _case(B=2, L=5, H=4, H_kv=2, hd=2, mask=None, dtype=torch.float32, scale=1.0, grads=True, tol=None):
    """mask: None, "causal" ([L, L]), "b1" ([B, 1, L, L]), "bh" ([B, H, L, L]), "padding" ([B, 1, 1, L]),
    or "dead" ([B, H, L, L] with some query rows fully masked: no gradients)."""
    C = H * hd

    def make(g: torch.Generator) -> Inputs:
        args = {"x": randn(g, B, L, C, dtype=dtype, scale=scale)}
        shapes = {"b1": (B, 1, L, L), "bh": (B, H, L, L), "padding": (B, 1, 1, L), "dead": (B, H, L, L)}
        if mask == "causal":
            args["mask"] = causal(L)
        elif mask is not None:
            args["mask"] = random_mask(g, *shapes[mask], dead_rows=0.3 if mask == "dead" else 0.0)
        want_grads = grads and mask != "dead" and dtype in (torch.float32, torch.float64)
        init = {"embed_dim": C, "num_heads": H, "num_kv_heads": H_kv}
        return Inputs(args=args, init=init, params=linear_params(g, C, kv_dim=H_kv * hd),
                      grad_of=("x",) if want_grads else (), probe=randn(g, B, L, C) if want_grads else None,
                      tol=tol, show=dict(init))
    return make


def _random(g: torch.Generator) -> Inputs:
    H_kv, group = randint(g, 1, 4), randint(g, 1, 4)
    hd, B, L = randint(g, 1, 4), randint(g, 1, 3), randint(g, 1, 8)
    dtype = torch.float64 if randint(g, 1, 5) == 1 else torch.float32
    return _case(B, L, H_kv * group, H_kv, hd, mask=pick(g, [None, "causal", "b1", "bh", "padding"]), dtype=dtype)(g)


def _bad_dims(embed_dim: int, num_heads: int, num_kv_heads: int):
    def make(g: torch.Generator) -> Inputs:
        init = {"embed_dim": embed_dim, "num_heads": num_heads, "num_kv_heads": num_kv_heads}
        return Inputs(args={}, init=init, show={BAD_DIMS: True, **init})
    return make


FAMILIES = (
    Family("group_of_two", _case(H=4, H_kv=2, hd=3)),
    Family("group_of_three", _case(H=6, H_kv=2, hd=2, mask="causal")),
    Family("group_of_four", _case(H=8, H_kv=2, hd=2, mask="bh")),
    Family("three_groups_of_two", _case(H=6, H_kv=3, hd=2, mask="b1")),
    Family("multi_query", _case(H=4, H_kv=1, hd=3, mask="causal")),
    Family("multi_head", _case(H=4, H_kv=4, hd=2, mask="bh")),
    Family("one_head", _case(H=1, H_kv=1, hd=6, mask="causal")),
    Family("causal_mask", _case(L=6, H=6, H_kv=3, mask="causal")),
    Family("random_mask_b1", _case(L=6, H=4, H_kv=2, mask="b1"), draws=2),
    Family("key_padding", _case(L=7, H=6, H_kv=2, mask="padding")),
    Family("random_mask", _case(L=6, H=8, H_kv=2, mask="bh"), draws=2),
    Family("fully_masked_rows", _case(L=6, H=4, H_kv=2, mask="dead"), draws=2),
    Family("fully_masked_rows_float16", _case(L=6, H=6, H_kv=2, mask="dead", dtype=torch.float16)),
    Family("fully_masked_rows_float64", _case(L=6, H=4, H_kv=2, mask="dead", dtype=torch.float64)),
    Family("head_dim_one", _case(H=4, H_kv=2, hd=1, mask="causal")),
    Family("seq_len_one", _case(L=1, H=4, H_kv=2)),
    Family("batch_one", _case(B=1, L=4, H=6, H_kv=3, mask="causal")),
    Family("float64", _case(H=6, H_kv=2, mask="bh", dtype=torch.float64)),
    Family("float16", _case(H=4, H_kv=2, hd=4, mask="causal", dtype=torch.float16)),
    Family("bfloat16", _case(H=6, H_kv=3, hd=4, mask="bh", dtype=torch.bfloat16)),
    Family("large_scores", _case(L=6, H=4, H_kv=2, hd=4, mask="bh", scale=30.0, grads=False, tol=(1e-3, 1e-4))),
    Family("indivisible_heads", _bad_dims(10, 4, 2)),
    Family("indivisible_kv_heads", _bad_dims(12, 6, 4)),
    Family("indivisible_kv_heads_2", _bad_dims(16, 8, 3)),
    Family("device", _case(L=5, H=4, H_kv=2, mask="causal"), track_device=True),
    Family("device_no_mask", _case(L=5, H=4, H_kv=2), track_device=True),
    Family("random", _random, draws=80),
)

expected = expected_module

WRONG_SHAPES = "wrong parameter shapes"  # the first item of the outcome of a module whose weights do not load


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """As mha's, except that k/v projections of the wrong size become an outcome the report can name
    (the contract's parameters do not load into them), not an error."""
    shapes: dict[str, tuple[int, ...]] = {}

    def build(**init):
        module = entry(**init)
        shapes.update({name: tuple(t.shape) for name, t in module.named_parameters()})
        return module

    try:
        return call_module(kata, build, inputs, device, track_device)
    except ParamsError:
        params = inputs.params or {}
        wrong = sorted(n for n, p in params.items() if n in shapes and shapes[n] != tuple(p.shape))
        if not wrong or set(shapes) != set(params):
            raise  # missing or extra names: the error says which
        return Outcome((WRONG_SHAPES, ", ".join(wrong)))


def compare(kata, case, expected: list[Outcome], got: Outcome) -> list[Problem] | None:
    init = case.inputs.init
    if BAD_DIMS in case.inputs.show:
        if got.value == RAISES:
            return []
        C, H, H_kv = init["embed_dim"], init["num_heads"], init["num_kv_heads"]
        why = (tr("{C} is not divisible by {H}", C=C, H=H) if C % H else
               tr("{H} query heads do not split into {H_kv} equal groups", H=H, H_kv=H_kv))
        did = got.value if isinstance(got.value, str) else tr("returned {value}", value=repr(got.value)[:60])
        return [Problem("values", "", tr("{entry}(embed_dim={C}, num_heads={H}, num_kv_heads={H_kv}) must raise "
                                         "AssertionError or ValueError in __init__ ({why}); yours {did}",
                                         entry=kata.entry, C=C, H=H, H_kv=H_kv, why=why, did=did))]
    if _wrong_shapes(got) or any(_wrong_shapes(e) for e in expected):
        if any(e.value == got.value for e in expected):
            return []  # the same wrong shapes as a known mistake (the mistake namer asks)
        if not _wrong_shapes(got):
            return [Problem("params", "", tr("your module's weights have the contract's shapes"))]
        hd = init["embed_dim"] // init["num_heads"]
        return [Problem("params", str(got.value[1]), tr(
            "the contract's weights do not fit your module: {names} have other shapes. w_q and w_o are "
            "nn.Linear(embed_dim, embed_dim); w_k and w_v are nn.Linear(embed_dim, num_kv_heads * head_dim) = "
            "nn.Linear({C}, {kv})", names=got.value[1], C=init["embed_dim"], kv=init["num_kv_heads"] * hd))]
    return None


def _wrong_shapes(outcome: Outcome) -> bool:
    value = outcome.value
    return isinstance(value, tuple) and len(value) == 2 and value[0] == WRONG_SHAPES


# ---------------------------------------------------------------- known mistakes


class _GQA(nn.Module):
    """The right computation with switches, one per known mistake."""

    tile_kv = False
    kv_full_width = False
    split_without_permute = False
    merge_without_permute = False
    scale_by_embed_dim = False
    skip_w_o = False
    detach_weights = False
    invert_mask = False
    fill: float | None = None  # None: finfo.min

    def __init__(self, embed_dim, num_heads, num_kv_heads):
        super().__init__()
        assert embed_dim % num_heads == 0 and num_heads % num_kv_heads == 0
        self.H, self.H_kv, self.hd = num_heads, num_kv_heads, embed_dim // num_heads
        kv_dim = embed_dim if self.kv_full_width else num_kv_heads * self.hd
        self.w_q, self.w_o = nn.Linear(embed_dim, embed_dim), nn.Linear(embed_dim, embed_dim)
        self.w_k, self.w_v = nn.Linear(embed_dim, kv_dim), nn.Linear(embed_dim, kv_dim)

    def split(self, t, heads):
        B, L, _ = t.shape
        if self.split_without_permute:
            return t.reshape(B, heads, L, self.hd)
        return t.view(B, L, heads, self.hd).transpose(1, 2)

    def expand(self, t):
        n = self.H // self.H_kv
        return t.repeat(1, n, 1, 1) if self.tile_kv else t.repeat_interleave(n, dim=1)

    def forward(self, x, mask=None):
        B, L, C = x.shape
        q = self.split(self.w_q(x), self.H)
        k, v = self.expand(self.split(self.w_k(x), self.H_kv)), self.expand(self.split(self.w_v(x), self.H_kv))
        scores = q @ k.transpose(-2, -1) / math.sqrt(C if self.scale_by_embed_dim else self.hd)
        if mask is not None:
            fill = torch.finfo(scores.dtype).min if self.fill is None else self.fill
            scores = scores.masked_fill(mask if self.invert_mask else ~mask, fill)
        weights = torch.softmax(scores, dim=-1)
        y = (weights.detach() if self.detach_weights else weights) @ v
        y = y.reshape(B, L, C) if self.merge_without_permute else y.transpose(1, 2).reshape(B, L, C)
        return (y if self.skip_w_o else self.w_o(y)), weights


def _variant(**switches):
    return type("Variant", (_GQA,), switches)


MISTAKES = (
    Mistake("kv_tiled", _variant(tile_kv=True)),
    Mistake("kv_projections_full_width", _variant(kv_full_width=True)),
    Mistake("split_without_permute", _variant(split_without_permute=True)),
    Mistake("merge_without_permute", _variant(merge_without_permute=True)),
    Mistake("scaled_by_embed_dim", _variant(scale_by_embed_dim=True)),
    Mistake("no_w_o", _variant(skip_w_o=True)),
    Mistake("weights_detached", _variant(detach_weights=True)),
    Mistake("mask_inverted", _variant(invert_mask=True)),
    Mistake("nan_fully_masked", _variant(fill=float("-inf"))),
)


def _bench(g: torch.Generator) -> Inputs:
    B, L, H, H_kv, hd = 1, 4096, 2, 1, 128
    C = H * hd
    return Inputs(args={"x": torch.randn(B, L, C, generator=g), "mask": torch.ones(L, L, dtype=torch.bool).tril()},
                  init={"embed_dim": C, "num_heads": H, "num_kv_heads": H_kv})


# `kata check gqa --bench`: one long sequence, as a prefill of a GQA model sees it.
BENCH = ("B = 1, L = 4096, C = 256, H = 2, H_kv = 1, head_dim = 128, causal mask", _bench)
