"""Case families for `dapo-loss`: advantages per response and per token, the four clip quadrants, the
clip-higher window where decoupled and symmetric bounds differ, the dual clip for A < 0 (and its absence for
A ≥ 0), B = T (a broadcast along tokens passes silently otherwise), responses of lengths 1 to 12 in one
batch, float masks, new = old, equal bounds, float64, one token.

Every case compares the loss and its gradient w.r.t. log_probs. Masked positions hold log-ratios up to
5 nats (never 0): a loss that counts them, or a gradient that reaches them, shows. No token ratio lies
within 1e-5 of a clip bound or of clip_ratio_c: there the gradient jumps, and rounding must never decide
a case. A failing loss is explained by a table of what each way of averaging the per-token losses gives.
"""
from __future__ import annotations

import sys

import torch

from checker.judge.compare import compare_outcome
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._align import (  # noqa: F401 — TOLERANCES and tolerance_for are the spec's hooks
    TOLERANCES, aggregation_lines, as_kind, explain_aggregation, explain_leak, leak_grid, lengths_mask, tolerance_for,
)
from checker.specs._rl import pick, randint, uniform

_OMIT = object()
GAP = 1e-5  # how far every token ratio stays from a bound


def _away_from_bounds(old: torch.Tensor, new: torch.Tensor, bounds: list[float], dtype) -> torch.Tensor:
    """new, nudged so that every ratio exp(new - old), computed in float64 from the values as rounded to
    dtype, is at least GAP from every bound."""
    for _ in range(4):
        ratio = torch.exp(new.to(dtype).double() - old.to(dtype).double())
        near = torch.zeros_like(ratio, dtype=torch.bool)
        for b in bounds:
            near |= (ratio - b).abs() < GAP
        if not near.any():
            break
        new = torch.where(near, new + 4e-5, new)
    return new


def _draw(g: torch.Generator, B: int, T: int, *, shift: object = 0.3, adv: str = "seq", adv_sign: float = 0.0,
          lengths: object = "random", kind: str = "bool", low: float = 0.2, high: float = 0.28, c: object = _OMIT,
          dtype=torch.float32, window: tuple[float, float] | None = None) -> Inputs:
    """shift: the std of new - old, or "same"; window: every valid ratio drawn uniformly in (lo, hi)."""
    old = -(0.5 + 4.0 * torch.rand(B, T, generator=g, dtype=torch.float64))
    if window is not None:
        lo, hi = window
        ratio = lo + (hi - lo) * torch.rand(B, T, generator=g, dtype=torch.float64)
        new = old + torch.log(ratio)
    elif shift == "same":
        new = old.clone()
    else:
        new = old + float(shift) * torch.randn(B, T, generator=g, dtype=torch.float64)
    mask = lengths_mask(g, B, T, lengths)
    if not mask.any():
        mask[0, 0] = True
    garbage = (0.5 + 4.5 * torch.rand(B, T, generator=g, dtype=torch.float64)) * torch.where(
        torch.rand(B, T, generator=g) < 0.5, -1.0, 1.0).to(torch.float64)
    new = torch.where(mask, new, old + garbage)  # padding: log-ratios of 0.5 to 5 nats
    shape = (B,) if adv == "seq" else (B, T)
    A = torch.randn(shape, generator=g, dtype=torch.float64)
    if adv_sign:
        A = A.abs().clamp(min=0.1) * adv_sign
    bounds = [1 - low, 1 + high] + ([c] if isinstance(c, (int, float)) else [])
    if shift != "same":
        new = _away_from_bounds(old, new, bounds, dtype)
    args = {"old_log_probs": old.to(dtype), "log_probs": new.to(dtype), "advantages": A.to(dtype),
            "response_mask": as_kind(mask, kind, dtype)}
    if (low, high) != (0.2, 0.28):
        args["clip_ratio_low"], args["clip_ratio_high"] = low, high
    if c is not _OMIT:
        args["clip_ratio_c"] = c
    return Inputs(args=args, grad_of=("log_probs",), show={"lengths": mask.sum(-1).tolist()})


def _case(B, T, **kw):
    return lambda g: _draw(g, B, T, **kw)


def _random(g: torch.Generator) -> Inputs:
    B, T = randint(g, 1, 8), randint(g, 1, 12)
    low = pick(g, [0.2, 0.2, 0.1, 0.3])
    high = pick(g, [0.28, 0.28, low, 0.4])
    return _draw(g, B, T, shift=round(uniform(g, 0.05, 1.2), 3), adv=pick(g, ["seq", "seq", "token"]),
                 lengths=pick(g, ["random", "random", (T,) * B]), kind=pick(g, ["bool", "bool", "float"]), low=low,
                 high=high, c=pick(g, [_OMIT, _OMIT, None, 3.0, 10.0]),
                 dtype=pick(g, [torch.float32, torch.float32, torch.float64]))


E = 2.718281828459045
LENGTHS = (6, 3, 1, 5)

FAMILIES = (
    Family("advantages_per_response", _case(4, 6, lengths=LENGTHS)),
    Family("advantages_per_token", _case(4, 6, adv="token", lengths=LENGTHS)),
    Family("clipped_above", _case(4, 6, window=(E ** 0.4, E ** 0.6), adv_sign=1.0, lengths=LENGTHS)),
    Family("unclipped_above", _case(4, 6, window=(E ** 0.4, E ** 0.6), adv_sign=-1.0, lengths=LENGTHS)),
    Family("clipped_below", _case(4, 6, window=(E ** -0.6, E ** -0.4), adv_sign=-1.0, lengths=LENGTHS)),
    Family("unclipped_below", _case(4, 6, window=(E ** -0.6, E ** -0.4), adv_sign=1.0, lengths=LENGTHS)),
    Family("clip_higher_window", _case(4, 6, window=(1.201, 1.279), adv_sign=1.0, lengths=LENGTHS)),
    Family("clip_lower_window", _case(4, 6, window=(0.751, 0.789), adv_sign=-1.0, lengths=LENGTHS)),
    Family("dual_clip_negative", _case(4, 6, window=(3.2, 5.0), adv_sign=-1.0, c=3.0, lengths=LENGTHS)),
    Family("dual_clip_positive_untouched", _case(4, 6, window=(3.2, 5.0), adv_sign=1.0, c=3.0, lengths=LENGTHS)),
    Family("dual_clip_10_mixed", _case(5, 8, window=(0.3, 14.0), c=10.0, lengths="random")),
    Family("dual_clip_per_token", _case(4, 6, window=(0.5, 5.0), adv="token", c=3.0, lengths=LENGTHS)),
    Family("dual_clip_off", _case(4, 6, window=(3.2, 5.0), adv_sign=-1.0, c=None, lengths=LENGTHS)),
    Family("square_batch", _case(5, 5, lengths=(5, 2, 4, 1, 3))),
    Family("lengths_1_to_12", _case(12, 12, lengths=tuple(range(1, 13)))),
    Family("float_mask", _case(4, 6, lengths=LENGTHS, kind="float")),
    Family("new_equals_old", _case(4, 6, shift="same", lengths=LENGTHS)),
    Family("equal_bounds", _case(4, 6, shift=0.4, low=0.2, high=0.2, lengths=LENGTHS)),
    Family("wide_bounds", _case(4, 6, shift=0.8, low=0.3, high=0.5, lengths=LENGTHS)),
    Family("float64", _case(4, 6, lengths=LENGTHS, dtype=torch.float64)),
    Family("float64_per_token", _case(4, 6, adv="token", c=3.0, lengths=LENGTHS, dtype=torch.float64)),
    Family("one_token", _case(1, 1, lengths=(1,))),
    Family("one_token_each", _case(4, 1, lengths=(1, 1, 1, 1))),
    Family("full_mask", _case(3, 7, lengths=(7, 7, 7))),
    Family("long_responses", _case(4, 64, lengths=(64, 1, 30, 47))),
    Family("random", _random, draws=76),
    Family("device", _case(4, 6, lengths=LENGTHS, c=3.0), track_device=True),
    Family("device_no_dual_clip", _case(4, 6, lengths=LENGTHS), track_device=True),
)


def compare(kata, case, expected, got):
    """The generic comparison, with the aggregation table under a wrong loss and the mask grid under a leak."""
    problems = compare_outcome(kata, sys.modules[__name__], case, expected[0], got)
    if not problems:
        return problems
    args = case.inputs.args
    loss = got.value
    if getattr(loss, "data", None) is not None and loss.data.numel() == 1 and torch.isfinite(loss.data).all():
        pg = _per_token(args["old_log_probs"].double(), args["log_probs"].double(), args["advantages"].double(),
                        args.get("clip_ratio_low", 0.2), args.get("clip_ratio_high", 0.28), args.get("clip_ratio_c"))
        table = aggregation_lines(pg, args["response_mask"], "token-mean", None, float(loss.data.double()))
        problems = explain_aggregation(problems, "loss", table)
    grad = got.extras.get("grad of log_probs")
    if getattr(grad, "data", None) is not None and tuple(grad.data.shape) == tuple(args["log_probs"].shape):
        problems = explain_leak(problems, "grad of log_probs", leak_grid(args["response_mask"], grad.data))
    return problems


# ---------------------------------------------------------------- known mistakes


def _per_token(old, new, adv, low, high, c, *, inverted=False, detach=False, bounds="decoupled", pick_min=False,
               dual="negative", adv_along_tokens=False):
    """bounds: "decoupled" (1 - low, 1 + high), "symmetric" (1 ± low), "swapped" (1 - high, 1 + low);
    dual: "negative" (A < 0 only), "all" (every token), "off"."""
    A = adv if adv.dim() == 2 else (adv[None, :] if adv_along_tokens else adv[:, None])
    ratio = torch.exp(old - new) if inverted else torch.exp(new - old)
    ratio = ratio.detach() if detach else ratio
    lo, hi = {"decoupled": (1 - low, 1 + high), "symmetric": (1 - low, 1 + low), "swapped": (1 - high, 1 + low)}[bounds]
    pg = (torch.minimum if pick_min else torch.maximum)(-A * ratio, -A * torch.clamp(ratio, lo, hi))
    if c is not None and dual != "off":
        capped = torch.minimum(pg, -A * c)
        pg = capped if dual == "all" else torch.where(A < 0, capped, pg)
    return pg


def _loss(old, new, adv, mask, low, high, c, *, reduce="token_mean", use_mask=True, **switches):
    pg = _per_token(old, new, adv, low, high, c, **switches)
    m = mask.to(pg.dtype) if use_mask else torch.ones_like(pg)
    if reduce == "seq_mean":
        n = m.sum(-1)
        keep = (n > 0).to(pg.dtype)
        return ((pg * m).sum(-1) / n.clamp(min=1) * keep).sum() / keep.sum()
    if reduce == "padding":
        return (pg * m).sum() / pg.numel()
    return (pg * m).sum() / m.sum()


def _variant(**switches):
    def dapo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=0.2, clip_ratio_high=0.28,
                  clip_ratio_c=None):
        return _loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low, clip_ratio_high,
                     clip_ratio_c, **switches)
    return dapo_loss


MISTAKES = (
    Mistake("symmetric_clip", _variant(bounds="symmetric")),
    Mistake("clip_bounds_swapped", _variant(bounds="swapped")),
    Mistake("dual_clip_on_positive", _variant(dual="all")),
    Mistake("dual_clip_ignored", _variant(dual="off")),
    Mistake("sample_level_mean", _variant(reduce="seq_mean")),
    Mistake("padding_in_denominator", _variant(reduce="padding")),
    Mistake("mask_ignored", _variant(use_mask=False)),
    Mistake("min_not_max", _variant(pick_min=True)),
    Mistake("ratio_inverted", _variant(inverted=True)),
    Mistake("ratio_detached", _variant(detach=True)),
    Mistake("advantages_along_tokens", _variant(adv_along_tokens=True)),
)


def _bench(g: torch.Generator) -> Inputs:
    B, T = 64, 2048
    mask = torch.arange(T)[None, :] < torch.randint(1, T + 1, (B,), generator=g)[:, None]
    old = -torch.rand(B, T, generator=g) * 4
    return Inputs(args={"old_log_probs": old, "log_probs": old + 0.2 * torch.randn(B, T, generator=g),
                        "advantages": torch.randn(B, generator=g), "response_mask": mask, "clip_ratio_c": 3.0},
                  grad_of=("log_probs",))


# `kata check dapo-loss --bench`: 64 responses of up to 2048 tokens, forward and backward.
BENCH = ("B = 64, T = 2048, dual clip on", _bench)
