"""Case families for `gspo-loss`: the paper's tiny asymmetric window (3e-4 / 4e-4) with sequence drifts on
both of its sides, clipped and unclipped drifts of 2e-3 for A > 0 and A < 0, padding 3 nats away (a mean
over T or over every position fails), lengths 40 and 2 in one batch, a PPO-sized window, a drift of 1e-5,
zero advantages, B = 1, T = 1, float masks, float64.

Every case compares the loss and its gradient w.r.t. log_probs. No sequence ratio s_i (computed in float64
from the inputs as rounded) lies within 1e-5 of a clip bound: there the gradient jumps.
"""
from __future__ import annotations

import sys

import torch

from checker.judge.compare import compare_outcome
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._align import (  # noqa: F401 — TOLERANCES and tolerance_for are the spec's hooks
    TOLERANCES, as_kind, explain_leak, leak_grid, lengths_mask, tolerance_for,
)
from checker.specs._rl import pick, randint, uniform

GAP = 1e-5


def _sequence_ratio(old: torch.Tensor, new: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    m = mask.double()
    return torch.exp(((new.double() - old.double()) * m).sum(-1) / m.sum(-1))


def _draw(g: torch.Generator, B: int, T: int, *, drift: object = 3e-4, adv_sign: float = 0.0, lengths: object = "random",
          kind: str = "bool", low: float = 3e-4, high: float = 4e-4, garbage: float = 3.0, noise: float = 0.05,
          dtype=torch.float32) -> Inputs:
    """drift: each response's log s_i, drawn uniformly in (-drift, drift), or a (lo, hi) interval;
    noise: the spread of the token log-ratios around it (their masked mean is exactly log s_i)."""
    mask = lengths_mask(g, B, T, lengths)
    mask[:, 0] = mask[:, 0] | ~mask.any(-1)  # every response has a valid token
    m = mask.double()
    old = -(0.5 + 4.0 * torch.rand(B, T, generator=g, dtype=torch.float64))
    lo, hi = drift if isinstance(drift, tuple) else (-drift, drift)
    target = lo + (hi - lo) * torch.rand(B, generator=g, dtype=torch.float64)  # (B,) log s_i
    tokens = noise * torch.randn(B, T, generator=g, dtype=torch.float64)
    tokens = tokens - (tokens * m).sum(-1, keepdim=True) / m.sum(-1, keepdim=True) + target[:, None]
    far = garbage * (0.5 + 0.5 * torch.rand(B, T, generator=g, dtype=torch.float64))
    tokens = torch.where(mask, tokens, far * torch.where(torch.rand(B, T, generator=g) < 0.5, -1.0, 1.0).double())
    new = old + tokens
    for _ in range(4):  # keep every s_i GAP away from the bounds, as the rounded inputs give it
        s = _sequence_ratio(old.to(dtype), new.to(dtype), mask)
        near = ((s - (1 - low)).abs() < GAP) | ((s - (1 + high)).abs() < GAP)
        if not near.any():
            break
        new = torch.where(near[:, None] & mask, new + 3e-5, new)
    A = torch.randn(B, generator=g, dtype=torch.float64)
    if adv_sign:
        A = A.abs().clamp(min=0.1) * adv_sign
    args = {"old_log_probs": old.to(dtype), "log_probs": new.to(dtype), "advantages": A.to(dtype),
            "response_mask": as_kind(mask, kind, dtype)}
    if (low, high) != (3e-4, 4e-4):
        args["clip_ratio_low"], args["clip_ratio_high"] = low, high
    return Inputs(args=args, grad_of=("log_probs",), show={"lengths": mask.sum(-1).tolist()})


def _case(B, T, **kw):
    return lambda g: _draw(g, B, T, **kw)


def _zero_advantages(g: torch.Generator) -> Inputs:
    inputs = _draw(g, 4, 6, lengths=(6, 3, 1, 5))
    inputs.args["advantages"] = torch.zeros(4)
    return inputs


def _random(g: torch.Generator) -> Inputs:
    B, T = randint(g, 1, 8), randint(g, 1, 16)
    window = pick(g, [(3e-4, 4e-4), (3e-4, 4e-4), (0.2, 0.28), (1e-3, 1e-3)])
    drift = pick(g, [window[1] * 1.5, window[1] * 4, 1e-5])
    return _draw(g, B, T, drift=round(drift, 8), lengths="random",
                 kind=pick(g, ["bool", "bool", "float"]), low=window[0], high=window[1],
                 noise=round(uniform(g, 0.0, 0.5), 3), dtype=pick(g, [torch.float32, torch.float32, torch.float64]))


LENGTHS = (6, 3, 1, 5)

FAMILIES = (
    Family("default_window_both_sides", _case(6, 8, drift=(-5e-4, 5e-4), lengths="random"), draws=2),
    Family("inside_high_only", _case(4, 6, drift=(3.2e-4, 3.8e-4), adv_sign=1.0, lengths=LENGTHS)),
    Family("below_low", _case(4, 6, drift=(-3.8e-4, -3.2e-4), adv_sign=-1.0, lengths=LENGTHS)),
    Family("clipped_above_positive", _case(4, 6, drift=(1.5e-3, 2.5e-3), adv_sign=1.0, lengths=LENGTHS)),
    Family("clipped_below_negative", _case(4, 6, drift=(-2.5e-3, -1.5e-3), adv_sign=-1.0, lengths=LENGTHS)),
    Family("unclipped_above_negative", _case(4, 6, drift=(1.5e-3, 2.5e-3), adv_sign=-1.0, lengths=LENGTHS)),
    Family("unclipped_below_positive", _case(4, 6, drift=(-2.5e-3, -1.5e-3), adv_sign=1.0, lengths=LENGTHS)),
    Family("padding_3_nats", _case(4, 8, lengths=(8, 2, 5, 1), garbage=3.0)),
    Family("lengths_40_and_2", _case(2, 40, drift=(-5e-4, 5e-4), lengths=(40, 2))),
    Family("ppo_sized_window", _case(4, 6, drift=0.4, low=0.2, high=0.28, lengths=LENGTHS, noise=0.3)),
    Family("tiny_drift", _case(4, 6, drift=1e-5, lengths=LENGTHS)),
    Family("zero_advantages", _zero_advantages),
    Family("batch_one", _case(1, 7, lengths=(5,))),
    Family("one_token", _case(4, 1, lengths=(1, 1, 1, 1), noise=0.0)),
    Family("float_mask", _case(4, 6, lengths=LENGTHS, kind="float")),
    Family("full_mask", _case(3, 5, lengths=(5, 5, 5))),
    Family("wide_noise", _case(4, 10, lengths=(10, 4, 7, 2), noise=1.0)),
    Family("float64", _case(4, 6, lengths=LENGTHS, dtype=torch.float64)),
    Family("float64_clipped", _case(4, 6, drift=(1.5e-3, 2.5e-3), lengths=LENGTHS, dtype=torch.float64)),
    Family("random", _random, draws=80),
    Family("device", _case(4, 6, lengths=LENGTHS), track_device=True),
)


def compare(kata, case, expected, got):
    """The generic comparison, with the mask grid under a gradient that reaches padding."""
    problems = compare_outcome(kata, sys.modules[__name__], case, expected[0], got)
    grad = got.extras.get("grad of log_probs")
    args = case.inputs.args
    if problems and getattr(grad, "data", None) is not None and tuple(grad.data.shape) == tuple(args["log_probs"].shape):
        problems = explain_leak(problems, "grad of log_probs", leak_grid(args["response_mask"], grad.data))
    return problems


# ---------------------------------------------------------------- known mistakes


def _loss(old, new, adv, mask, low, high, *, ratio="geometric", bounds="decoupled", pick_max=False, detach=False,
          reduce="sequences"):
    """ratio: "geometric" (the contract), "token" (GRPO's per-token ratio), "sum" (no 1/|y_i|), "over_T"
    (Σ/T), "unmasked" (mean over every position), "arithmetic" (mean of the token ratios);
    reduce: "sequences" (1/B), "tokens" (weighted by length, a token-mean)."""
    m = mask.to(new.dtype)
    n = m.sum(-1)
    lr = new - old
    lo, hi = {"decoupled": (1 - low, 1 + high), "symmetric": (1 - low, 1 + low), "swapped": (1 - high, 1 + low)}[bounds]
    if ratio == "token":
        r = torch.exp(lr)
        r = r.detach() if detach else r
        obj = (torch.max if pick_max else torch.min)(r * adv[:, None], torch.clamp(r, lo, hi) * adv[:, None])
        return -((obj * m).sum(-1) / n).mean()
    if ratio == "sum":
        s = torch.exp((lr * m).sum(-1))
    elif ratio == "over_T":
        s = torch.exp((lr * m).sum(-1) / lr.shape[-1])
    elif ratio == "unmasked":
        s = torch.exp(lr.mean(-1))
    elif ratio == "arithmetic":
        s = (torch.exp(lr) * m).sum(-1) / n
    else:
        s = torch.exp((lr * m).sum(-1) / n)
    s = s.detach() if detach else s
    obj = (torch.max if pick_max else torch.min)(s * adv, torch.clamp(s, lo, hi) * adv)
    if reduce == "tokens":
        return -(obj * n).sum() / n.sum()
    return -obj.mean()


def _variant(**switches):
    def gspo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=3e-4, clip_ratio_high=4e-4):
        return _loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low, clip_ratio_high, **switches)
    return gspo_loss


MISTAKES = (
    Mistake("token_level_ratio", _variant(ratio="token")),
    Mistake("no_length_normalisation", _variant(ratio="sum")),
    Mistake("mean_over_T", _variant(ratio="over_T")),
    Mistake("mask_ignored_in_ratio", _variant(ratio="unmasked")),
    Mistake("arithmetic_mean_of_ratios", _variant(ratio="arithmetic")),
    Mistake("symmetric_clip", _variant(bounds="symmetric")),
    Mistake("clip_bounds_swapped", _variant(bounds="swapped")),
    Mistake("max_not_min", _variant(pick_max=True)),
    Mistake("ratio_detached", _variant(detach=True)),
    Mistake("token_mean_over_responses", _variant(reduce="tokens")),
)


def _bench(g: torch.Generator) -> Inputs:
    B, T = 64, 2048
    mask = torch.arange(T)[None, :] < torch.randint(1, T + 1, (B,), generator=g)[:, None]
    old = -torch.rand(B, T, generator=g) * 4
    return Inputs(args={"old_log_probs": old, "log_probs": old + 1e-3 * torch.randn(B, T, generator=g),
                        "advantages": torch.randn(B, generator=g), "response_mask": mask}, grad_of=("log_probs",))


# `kata check gspo-loss --bench`: 64 responses of up to 2048 tokens, forward and backward.
BENCH = ("B = 64, T = 2048", _bench)
