"""Shared makers and hooks for the attention katas: tensors, masks, parameters, and the two
accepted conventions for a query whose keys are all masked (zero or uniform weights).
"""
from __future__ import annotations

import math
import sys
from dataclasses import replace
from typing import Any

import torch
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.judge.codec import TensorValue
from checker.judge.compare import compare_outcome, compare_values, split_outputs
from checker.text.i18n import tr
from checker.judge.results import Problem
from checker.judge.spec import Inputs, Outcome

# ---------------------------------------------------------------- drawing inputs


def randn(g: torch.Generator, *shape: int, dtype: torch.dtype = torch.float32, scale: float = 1.0) -> torch.Tensor:
    """Normal values drawn in float64 and cast, so every dtype sees the same numbers."""
    return (scale * torch.randn(shape, generator=g, dtype=torch.float64)).to(dtype)


def randint(g: torch.Generator, low: int, high: int) -> int:
    """An int in [low, high]."""
    return int(torch.randint(low, high + 1, (1,), generator=g))


def pick(g: torch.Generator, choices: list) -> Any:
    return choices[randint(g, 0, len(choices) - 1)]


def random_mask(g: torch.Generator, *shape: int, keep: float = 0.6, dead_rows: float = 0.0) -> torch.Tensor:
    """bool mask of `shape`, True = may attend; every query row keeps at least one key unless
    it is one of the `dead_rows` fraction chosen to be fully masked (at least one then)."""
    mask = torch.rand(shape, generator=g) < keep
    first = torch.randint(shape[-1], shape[:-1], generator=g)  # one key each row surely keeps
    mask.scatter_(-1, first.unsqueeze(-1), True)
    if dead_rows > 0:
        dead = torch.rand(shape[:-1], generator=g) < dead_rows
        dead.view(-1)[int(torch.randint(dead.numel(), (1,), generator=g))] = True
        mask[dead] = False
    return mask


def causal(Lq: int, Lk: int | None = None) -> torch.Tensor:
    """bool (Lq, Lk): the last Lq of Lk positions, each seeing itself and everything before."""
    Lk = Lq if Lk is None else Lk
    return torch.ones(Lq, Lk, dtype=torch.bool).tril(diagonal=Lk - Lq)


def linear_params(g: torch.Generator, C: int, kv_dim: int | None = None) -> dict[str, torch.Tensor]:
    """state_dict of w_q, w_k, w_v, w_o (each nn.Linear(C, C); w_k and w_v nn.Linear(C, kv_dim) when
    given, as grouped-query attention has), drawn like nn.Linear's init."""
    bound = 1 / math.sqrt(C)
    params = {}
    for name in ("w_q", "w_k", "w_v", "w_o"):
        out = kv_dim if kv_dim is not None and name in ("w_k", "w_v") else C
        params[f"{name}.weight"] = (torch.rand(out, C, generator=g, dtype=torch.float64) * 2 - 1).mul(bound).float()
        params[f"{name}.bias"] = (torch.rand(out, generator=g, dtype=torch.float64) * 2 - 1).mul(bound).float()
    return params


def padding_mask(g: torch.Generator, B: int, Lq: int, Lk: int | None = None) -> torch.Tensor:
    """bool [B, 1, Lq, Lk]: padded positions take no part, as queries or as keys, so the queries at
    padded positions have every key masked. Each batch keeps its first position and pads its last;
    self-attention (Lk None) pads the same positions on both sides."""
    def live(L: int) -> torch.Tensor:
        keep = torch.rand(B, L, generator=g) < 0.6
        keep[:, -1] = False
        keep[:, 0] = True
        return keep

    q_live = live(Lq)
    k_live = q_live if Lk is None else live(Lk)
    return (q_live[:, :, None] & k_live[:, None, :])[:, None]


def spread_rows(width: Any, dead: torch.Tensor, rows: torch.Tensor, spread: float = 200.0,
                limit: float = 2.0**12) -> torch.Tensor:
    """Scale the rows of an input (rows[dead], each a last-dim vector) until `width(rows)` — for
    each row, how far apart the scores of the fully-masked query it feeds lie (float64, the
    narrowest over heads) — is at least `spread` wherever `dead`. A mask *added* to scores this far
    apart cannot hide them (in float16 finfo.min + s rounds to steps of 32 or overflows to -inf),
    while a fill that replaces them gives the accepted zero or uniform rows whatever they were."""
    for _ in range(16):
        w = width(rows)[dead]
        if w.numel() == 0 or bool((w >= spread).all()) or float(rows.abs().max()) > limit:
            break
        factor = torch.where(dead, 2.0, 1.0).to(rows.dtype)
        rows = rows * factor[..., None]
    return rows


def projected_width(x: torch.Tensor, source: torch.Tensor | None, params: dict[str, torch.Tensor], H: int) -> torch.Tensor:
    """For mha / cross-attention inputs: how far apart each query row's scores lie, the narrowest
    over heads, float64, [B, Lq] (source None: self-attention, the keys come from x itself)."""
    P = {k: v.double() for k, v in params.items()}
    x = x.double()
    src = x if source is None else source.double()
    B, Lq, C = x.shape
    q = (x @ P["w_q.weight"].T + P["w_q.bias"]).view(B, Lq, H, C // H).transpose(1, 2)  # (B, H, Lq, hd)
    k = (src @ P["w_k.weight"].T + P["w_k.bias"]).view(B, src.size(1), H, C // H).transpose(1, 2)  # (B, H, Lk, hd)
    s = q @ k.transpose(-2, -1) / math.sqrt(C // H)  # (B, H, Lq, Lk)
    return (s.amax(-1) - s.amin(-1)).amin(1)  # (B, Lq)


def has_dead_rows(mask: torch.Tensor | None) -> bool:
    return mask is not None and bool((~mask.any(-1)).any())


# ---------------------------------------------------------------- low precision

LOW_PRECISION = (torch.float16, torch.bfloat16)


def expected_in_float32(run: Any, inputs: Inputs, accepted: Any = None) -> list[Outcome]:
    """The accepted answers: `accepted(outcome, inputs)` of the reference's outcome (default: just
    it). float16 / bfloat16 cases: the reference computes in float32 on the same (already rounded)
    numbers, the accepted answers are derived there, and each is rounded once, so the learner's
    rounding is measured against the exact answer, not against a second rounding path with errors
    of its own."""
    accepted = accepted or (lambda outcome, _inputs: [outcome])
    dtype = next(v.dtype for v in inputs.args.values() if isinstance(v, torch.Tensor) and v.is_floating_point())
    if dtype not in LOW_PRECISION:
        return accepted(run(inputs), inputs)
    assert not inputs.grad_of and inputs.probe is None, "low-precision cases compare the forward only"
    up = lambda t: t.to(dtype).float() if isinstance(t, torch.Tensor) and t.is_floating_point() else t  # noqa: E731
    wide = replace(inputs, args={k: up(v) for k, v in inputs.args.items()},
                   params=None if inputs.params is None else {k: up(p) for k, p in inputs.params.items()})
    down = lambda t: t.detach().to(dtype) if isinstance(t, torch.Tensor) else t  # noqa: E731
    return [Outcome(tuple(down(t) for t in o.value), {k: down(t) for k, t in o.extras.items()}, o.args)
            for o in accepted(run(wide), wide)]


# ---------------------------------------------------------------- fully-masked rows


def dead_rows(mask: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    """bool (B, H, Lq, 1): the query rows whose keys are all masked."""
    return ~mask.to(weights.device).expand_as(weights).any(-1, keepdim=True)


def zero_dead_rows_attention(outcome: Outcome, inputs: Inputs, device: torch.device) -> Outcome:
    """The reference's answer under the other convention: fully-masked rows get zero weights."""
    out, weights = (t.detach() for t in outcome.value)
    dead = dead_rows(inputs.args["mask"], weights)
    weights = weights.masked_fill(dead, 0)
    return Outcome((weights @ inputs.args["v"].to(device), weights), outcome.extras, outcome.args)


def zero_dead_rows_module(outcome: Outcome, inputs: Inputs, device: torch.device) -> Outcome:
    """As `zero_dead_rows_attention` for mha / cross-attention: take out what the uniform rows
    added to the heads, through w_o (the bias is unaffected)."""
    out, weights = (t.detach() for t in outcome.value)
    x = inputs.args["x"].to(device)
    source = inputs.args.get("context", inputs.args["x"]).to(device)
    P = {k: p.to(device=device, dtype=x.dtype) for k, p in inputs.params.items()}
    B, Lq, C = x.shape
    Lk, H = source.size(1), inputs.init["num_heads"]
    H_kv = inputs.init.get("num_kv_heads", H)  # gqa: query head h reads kv head h // (H / H_kv)
    v = F.linear(source, P["w_v.weight"], P["w_v.bias"]).view(B, Lk, H_kv, C // H).transpose(1, 2)  # (B, H_kv, Lk, hd)
    v = v.repeat_interleave(H // H_kv, dim=1)  # (B, H, Lk, hd)
    dead = dead_rows(inputs.args["mask"], weights)
    added = (weights * dead) @ v  # (B, H, Lq, hd): what the uniform dead rows contributed
    added = added.transpose(1, 2).reshape(B, Lq, C)  # (B, Lq, C)
    return Outcome((out - added @ P["w_o.weight"].T, weights.masked_fill(dead, 0)), outcome.extras, outcome.args)


def with_zero_rows(outcome: Outcome, inputs: Inputs, device: torch.device, module: bool) -> list[Outcome]:
    """[uniform convention (the reference), zero convention] when a row is fully masked."""
    mask = inputs.args.get("mask")
    if not has_dead_rows(mask):
        return [outcome]
    assert not outcome.extras, "fully-masked rows make gradients convention-dependent: give such cases no probe"
    zero = zero_dead_rows_module if module else zero_dead_rows_attention
    return [outcome, zero(outcome, inputs, device)]


# ---------------------------------------------------------------- module katas (mha, cross)

BAD_DIMS = "bad_dims"  # Inputs.show key marking the case that only builds the module
RAISES = "raises AssertionError or ValueError"


def call_module(kata: Any, entry: Any, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """The default protocol, plus: the module in the inputs' dtype, and the bad-dims case."""
    if BAD_DIMS in inputs.show:
        return Outcome(_construct(entry, inputs.init))
    dtype = inputs.args["x"].dtype
    factory = entry if dtype == torch.float32 else (lambda **init: spec_api.convert(entry(**init), dtype))
    return spec_api.call(kata, factory, inputs, device, track_device)


def _construct(entry: Any, init: dict) -> str:
    """What building the module with dims that do not divide did, in words."""
    try:
        entry(**init)
    except NotImplementedError:
        raise  # still a stub
    except (AssertionError, ValueError):
        return RAISES
    except Exception as exc:  # noqa: BLE001 — reported, not raised: the case is about raising
        return tr("raised {type}: {message}", type=type(exc).__name__, message=str(exc)[:200])
    return tr("returned normally")


def expected_module(kata: Any, entry: Any, inputs: Inputs, device: torch.device) -> list[Outcome]:
    if BAD_DIMS in inputs.show:
        return [call_module(kata, entry, inputs, device)]
    return expected_in_float32(lambda i: call_module(kata, entry, i, device), inputs,
                               lambda outcome, i: with_zero_rows(outcome, i, device, module=True))


def compare_module(kata: Any, case: Any, expected: list[Outcome], got: Outcome) -> list[Problem] | None:
    if BAD_DIMS not in case.inputs.show:
        return None
    if got.value == RAISES:
        return []
    C, H = case.inputs.init["embed_dim"], case.inputs.init["num_heads"]
    did = got.value if isinstance(got.value, str) else tr("returned {value}", value=f"{got.value!r:.60}")
    return [Problem("values", "", tr("{entry}(embed_dim={C}, num_heads={H}) must raise AssertionError or ValueError in "
                                     "__init__ ({C} is not divisible by {H}); yours {did}", entry=kata.entry, C=C, H=H,
                                     did=did))]


def bad_dims(embed_dim: int, num_heads: int):
    def make(g: torch.Generator) -> Inputs:
        init = {"embed_dim": embed_dim, "num_heads": num_heads}
        return Inputs(args={}, init=init, show={BAD_DIMS: True, **init})
    return make


# ---------------------------------------------------------------- dropout in train mode

KEEP_THRESHOLD = 1e-3  # a weight this large is clearly told apart from a dropped one


def is_train_dropout(inputs: Inputs) -> bool:
    return inputs.train and inputs.init.get("dropout_p", 0.0) > 0


def eval_mode(inputs: Inputs) -> Inputs:
    """The same case without dropout: the weights before dropout, which train mode scales or zeroes."""
    return replace(inputs, train=False)


def compare_dropout(kata: Any, case: Any, expected: list[Outcome], got: Outcome) -> list[Problem]:
    """Train-mode dropout without matching RNG: every weight is 0 or ref/(1-p), the dropped
    fraction is near p, and output = weights @ v from the learner's own weights."""
    spec = sys.modules[kata.spec_module]
    p = case.inputs.init["dropout_p"]
    want, _ = split_outputs(kata, expected[0].value)
    have, problems = split_outputs(kata, got.value)
    if have is None:
        return problems
    for name in kata.outputs:  # structure and NaN first: any finite values pass this round
        problems += compare_values(name, want[name], have[name], 0.0, math.inf)
    if problems:
        return problems
    w_ref = want["attn_weights"].data.double()
    w_got = have["attn_weights"].data.double()
    scaled = w_ref / (1 - p)
    dropped = w_got.abs() < (w_got - scaled).abs()
    w_exp = torch.where(dropped, torch.zeros_like(scaled), scaled)
    v = case.inputs.args["v"].double()
    out_exp = w_got @ v  # the output must come from the weights returned
    synthetic = Outcome((_like(have["output"], out_exp), _like(have["attn_weights"], w_exp)))
    problems = [_explain(p_, case.inputs.init["dropout_p"]) for p_ in compare_outcome(kata, spec, case, synthetic, got)]
    clear = scaled > KEEP_THRESHOLD
    n = int(clear.sum())
    k = int((dropped & clear).sum())
    slack = 4.5 * math.sqrt(p * (1 - p) / n) + 1 / n
    if abs(k / n - p) > slack:
        problems.append(Problem("values", "attn_weights", tr(
            "dropout zeroed {k} of {n} weights ({share}); with dropout_p={p} about {expected} should be zeroed (allowed "
            "{low} to {high})", k=k, n=n, share=f"{k / n:.1%}", p=p, expected=f"{p:.0%}", low=f"{max(p - slack, 0):.1%}",
            high=f"{min(p + slack, 1):.1%}")))
    return problems


def _explain(problem: Problem, p: float) -> Problem:
    """Say what the synthetic expectation is: the learner's own dropout pattern, judged by the rule."""
    n = problem.mismatch.mismatched if problem.mismatch else tr("some")
    if problem.item == "attn_weights" and problem.kind == "values":
        return replace(problem, message=tr("attn_weights: {n} weights are neither 0 nor the eval-mode weight scaled by "
                                           "1/(1-p) = {scale} (expected keeps your own pattern of dropped weights)",
                                           n=n, scale=f"{1 / (1 - p):g}"))
    if problem.item == "output" and problem.kind == "values":
        return replace(problem, message=tr("output is not attn_weights @ v for the weights you return ({n} values differ)",
                                           n=n))
    return problem


def _like(template: TensorValue, data: torch.Tensor) -> TensorValue:
    dtype = getattr(torch, template.dtype)
    return TensorValue(data.to(dtype), template.dtype, template.shape, template.device)
