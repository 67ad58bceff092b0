"""Case families for `moe-router`: k ∈ {1, 2, 3, E}, E = 2, T = 1, all logits equal, ties inside the
top-k and at the k-th place, peaked rows whose other probabilities underflow, logits ~1e4, a router
that collapses onto one expert, float64, float16 and bfloat16.

Ties. torch.topk breaks ties in no documented order, so where two probabilities that decide the
choice are equal up to rounding (within 4·eps of the input dtype: exactly equal logits, or
probabilities that underflow to 0 in float32) any tie-break is right. On such a case the answer is
judged by a rule, not against the reference: each row's experts are distinct, in [0, E), a top-k
set of p in non-increasing order; the weights are the chosen probabilities renormalised; aux_loss
is E·Σ f_e·P_e from the experts actually returned. Without ties this is equality with the reference,
and the gradient of (weights · probe).sum() + aux_loss w.r.t. router_logits is compared too.
"""
from __future__ import annotations

import sys
from dataclasses import replace

import numpy as np
import torch
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.judge.codec import TensorValue
from checker.judge.compare import compare_values, split_outputs
from checker.text.i18n import plural, tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs._rl import pick, randint, uniform

LOW_PRECISION = (torch.float16, torch.bfloat16)


def _inputs(logits: torch.Tensor, k: int | None, dtype: torch.dtype, g: torch.Generator, grads: bool = True) -> Inputs:
    args = {"router_logits": logits.to(dtype)}
    if k is not None:
        args["k"] = k
    T = logits.shape[0]
    grads = grads and dtype not in LOW_PRECISION and not _has_ties(args["router_logits"], k or 2)
    probe = torch.randn(T, k or 2, generator=g) if grads else None
    return Inputs(args=args, grad_of=("router_logits",) if grads else (), probe=probe,
                  show={"k": k or 2, "experts": logits.shape[1]})


def _draw(g: torch.Generator, T: int = 16, E: int = 8, k: int | None = 2, *, scale: float = 1.5,
          dtype: torch.dtype = torch.float32, shift: float = 0.0, collapse: float = 0.0) -> Inputs:
    logits = scale * torch.randn(T, E, generator=g, dtype=torch.float64) + shift
    logits[:, 0] += collapse
    return _inputs(logits, k, dtype, g)


def _spaced(g: torch.Generator, T: int, E: int, k: int, dtype: torch.dtype) -> Inputs:
    """Half-precision rows whose logits are at least 0.05 apart once rounded (0.07 before: bfloat16 rounds
    values below 4 by at most 2^-7), so rounding cannot reorder them."""
    gaps = 0.07 + 0.5 * torch.rand(T, E, generator=g, dtype=torch.float64)
    values = gaps.cumsum(-1) - 2.0  # (T, E) increasing, spaced >= 0.05
    order = torch.argsort(torch.rand(T, E, generator=g), dim=-1)
    return _inputs(values.gather(-1, order), k, dtype, g)


def _equal(g: torch.Generator, T: int = 8, E: int = 6, k: int = 2) -> Inputs:
    return _inputs(torch.full((T, E), 0.7, dtype=torch.float64), k, torch.float32, g)


def _ties(g: torch.Generator, *, inside: bool, T: int = 12, E: int = 8, k: int = 3) -> Inputs:
    """Distinct logits, then in every row two experts made equal: the top two (a tie inside the
    top-k) or the k-th and (k+1)-th (a tie at the cut)."""
    logits = _distinct(g, T, E)
    order = torch.argsort(logits, dim=-1, descending=True)  # (T, E)
    a, b = (0, 1) if inside else (k - 1, k)
    rows = torch.arange(T)
    logits[rows, order[:, b]] = logits[rows, order[:, a]]
    return _inputs(logits, k, torch.float32, g)


def _distinct(g: torch.Generator, T: int, E: int) -> torch.Tensor:
    """Logits whose gaps are >= 0.1 in every row, in a random order."""
    values = (0.1 + 0.5 * torch.rand(T, E, generator=g, dtype=torch.float64)).cumsum(-1) - 1.5
    return values.gather(-1, torch.argsort(torch.rand(T, E, generator=g), dim=-1))


def _peaked(g: torch.Generator, dtype: torch.dtype = torch.float32, k: int = 2) -> Inputs:
    """One expert far ahead in each row: the others' probabilities (e^-200 and below) underflow in float32."""
    T, E = 6, 8
    logits = -200.0 - 10 * torch.rand(T, E, generator=g, dtype=torch.float64)
    logits[torch.arange(T), torch.randint(E, (T,), generator=g)] = 0.0
    return _inputs(logits, k, dtype, g)


def _random(g: torch.Generator) -> Inputs:
    E = randint(g, 2, 16)
    k = pick(g, [1, 2, 2, 2, min(3, E), E, randint(g, 1, E)])
    dtype = pick(g, [torch.float32] * 4 + [torch.float64])
    return _draw(g, randint(g, 1, 40), E, k, scale=round(uniform(g, 0.3, 4.0), 3), dtype=dtype)


FAMILIES = (
    Family("k_two", _draw),
    Family("k_default", lambda g: _draw(g, k=None)),
    Family("k_one", lambda g: _draw(g, k=1)),
    Family("k_three", lambda g: _draw(g, k=3)),
    Family("k_equals_experts", lambda g: _draw(g, E=4, k=4)),
    Family("two_experts", lambda g: _draw(g, E=2, k=1)),
    Family("two_experts_k_two", lambda g: _draw(g, E=2, k=2)),
    Family("one_token", lambda g: _draw(g, T=1, k=2)),
    Family("many_tokens", lambda g: _draw(g, T=512, E=16, k=2)),
    Family("large_logits", lambda g: _draw(g, shift=1e4)),
    Family("collapsed_router", lambda g: _draw(g, T=32, collapse=8.0)),
    Family("float64", lambda g: _draw(g, T=12, E=6, k=3, dtype=torch.float64)),
    Family("float64_k_one", lambda g: _draw(g, T=12, E=6, k=1, dtype=torch.float64)),
    Family("all_logits_equal", _equal),
    Family("all_logits_equal_k_three", lambda g: _equal(g, T=5, E=4, k=3)),
    Family("ties_inside_top_k", lambda g: _ties(g, inside=True)),
    Family("ties_at_kth_place", lambda g: _ties(g, inside=False, k=2)),
    Family("ties_at_kth_place_k_one", lambda g: _ties(g, inside=False, k=1)),
    Family("peaked_rows", _peaked),
    Family("peaked_rows_float64", lambda g: _peaked(g, torch.float64, k=3)),
    Family("float16", lambda g: _spaced(g, 16, 8, 2, torch.float16)),
    Family("bfloat16", lambda g: _spaced(g, 16, 8, 2, torch.bfloat16)),
    Family("bfloat16_k_three", lambda g: _spaced(g, 9, 6, 3, torch.bfloat16)),
    Family("random", _random, draws=78),
    Family("device", _draw, track_device=True),
)


# ---------------------------------------------------------------- the protocol


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Forward as usual; on cases with a probe, the gradient of (weights·probe).sum() + aux_loss."""
    if inputs.probe is None:
        return spec_api.call(kata, entry, inputs, device, track_device)
    leaf = inputs.args["router_logits"].detach().requires_grad_(True)
    forward = replace(inputs, args={**inputs.args, "router_logits": leaf}, grad_of=(), probe=None)
    outcome = spec_api.call(kata, entry, forward, device, track_device)
    # Differentiate with respect to the leaf made here, not outcome.args: on a simulated device those are
    # aliases made as the simulation reports its tensors, which the learner's graph never saw.
    outcome.extras["grad of router_logits"] = _gradient(outcome.value, leaf, inputs.probe)
    return outcome


def _gradient(value, x: torch.Tensor, probe: torch.Tensor) -> torch.Tensor | None:
    if not (isinstance(value, tuple) and len(value) == 3):
        return None  # the structure check says what is wrong
    weights, _, aux = value
    terms = []
    if isinstance(weights, torch.Tensor) and weights.requires_grad:
        p = probe.to(device=weights.device, dtype=weights.dtype)
        terms.append((weights * p).sum() if weights.shape == p.shape else weights.sum())
    if isinstance(aux, torch.Tensor) and aux.requires_grad:
        terms.append(aux.sum())
    if not terms:
        return None
    (grad,) = torch.autograd.grad(sum(terms), x, allow_unused=True)
    return grad


# ---------------------------------------------------------------- ties: any tie-break is right


def _tie_tolerance(dtype: torch.dtype) -> float:
    return 4 * torch.finfo(dtype).eps


def _probabilities(logits: torch.Tensor) -> np.ndarray:
    """softmax in float64 NumPy: the parent judges with NumPy, whose small ops never wait for a thread pool."""
    x = logits.detach().double().numpy()
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _has_ties(logits: torch.Tensor, k: int) -> bool:
    """Whether two probabilities that decide the choice or its order are equal up to rounding."""
    p = _probabilities(logits)
    top = -np.sort(-p, axis=-1)[:, :k + 1]  # (T, k+1): the chosen and the first left out
    return bool((top[:, :-1] - top[:, 1:] <= _tie_tolerance(logits.dtype)).any())


def compare(kata, case, expected: list[Outcome], got: Outcome) -> list[Problem] | None:
    """Tie-free cases: None (equality with the reference). Cases with ties: the rule above."""
    args = case.inputs.args
    if not _has_ties(args["router_logits"], args.get("k", 2)):
        return None
    want, _ = split_outputs(kata, expected[0].value)
    have, problems = split_outputs(kata, got.value)
    if have is None:
        return problems
    for name in kata.outputs:  # type, shape, dtype, device: the reference's values are one answer of many
        w = want[name]
        problems += compare_values(name, TensorValue(None, w.dtype, w.shape, w.device), have[name], 0.0, 0.0)
    if problems:
        return problems
    return _judge_ties(kata, case, have)


def _judge_ties(kata, case, have: dict) -> list[Problem]:
    logits, k = case.inputs.args["router_logits"], case.inputs.args.get("k", 2)
    dtype, (T, E) = logits.dtype, logits.shape
    p = _probabilities(logits)  # (T, E)
    experts = have["experts"].data.numpy()
    outside = ((experts < 0) | (experts >= E)).any(-1)
    if outside.any():
        return [_rows("experts", plural(int(outside.sum()), "experts has indices outside [0, {E}) in {n} row: row {row}",
                                        "experts has indices outside [0, {E}) in {n} rows, first in row {row}",
                                        E=E, row=_first(outside)))]
    ordered = np.sort(experts, axis=-1)
    repeated = (ordered[:, 1:] == ordered[:, :-1]).any(-1)
    if repeated.any():
        return [_rows("experts", plural(int(repeated.sum()), "experts names the same expert twice in {n} row: row {row}; "
                                        "each token's k experts are distinct", "experts names the same expert twice in {n} "
                                        "rows, first in row {row}: each token's k experts are distinct", row=_first(repeated)))]
    tol = _tie_tolerance(dtype)
    chosen = np.take_along_axis(p, experts, axis=-1)  # (T, k)
    picked = np.zeros((T, E), dtype=bool)
    np.put_along_axis(picked, experts, True, axis=-1)
    problems = []
    if k < E:
        rest = np.where(picked, -1.0, p)
        missed = chosen.min(-1) < rest.max(-1) - tol
        if missed.any():
            row = _first(missed)
            problems.append(_rows("experts", plural(
                int(missed.sum()), "experts is not a top-{k} set in {n} row: in row {row}, expert {out} (p = {p_out}) is "
                "left out but expert {kept} (p = {p_kept}) is chosen", "experts is not a top-{k} set in {n} rows: in row "
                "{row}, expert {out} (p = {p_out}) is left out but expert {kept} (p = {p_kept}) is chosen", k=k, row=row,
                out=int(rest[row].argmax()), p_out=f"{rest[row].max():.6g}", kept=int(experts[row, chosen[row].argmin()]),
                p_kept=f"{chosen[row].min():.6g}")))
    unordered = (chosen[:, 1:] > chosen[:, :-1] + tol).any(-1)
    if unordered.any():
        problems.append(_rows("experts", plural(
            int(unordered.sum()), "experts are not in non-increasing probability in {n} row: row {row}; the most "
            "probable expert comes first", "experts are not in non-increasing probability in {n} rows, first in row "
            "{row}: the most probable expert comes first", row=_first(unordered))))
    if problems:
        return problems
    spec = sys.modules[kata.spec_module]
    weights = chosen / chosen.sum(-1, keepdims=True)  # (T, k): the learner's own choice, renormalised
    aux = E * (picked.mean(0) * p.mean(0)).sum()  # f_e from the experts returned, P_e from p
    for name, value, words in (
            ("weights", weights, tr("weights are not the probabilities of the experts you chose, renormalised to sum "
                                    "to 1 per token (ties may be broken any way; this judges your own choice)")),
            ("aux_loss", np.asarray(aux), tr("aux_loss is not E·Σ_e f_e·P_e for the experts you returned (f_e: the "
                                             "fraction of tokens that sent a slot to e; P_e: the mean probability of "
                                             "e)"))):
        rtol, atol = spec_api.tolerance(spec, case, dtype, name)
        data = torch.from_numpy(value).to(dtype)
        exp = TensorValue(data, str(dtype).removeprefix("torch."), tuple(data.shape), have[name].device)
        problems += [replace(pr, message=words) if pr.kind == "values" else pr
                     for pr in compare_values(name, exp, have[name], rtol, atol)]
    return problems


def _first(rows: np.ndarray) -> int:
    return int(np.flatnonzero(rows)[0])


def _rows(item: str, message: str) -> Problem:
    """A problem with some rows of an output; the message names how many and the first."""
    return Problem("values", item, message)


# ---------------------------------------------------------------- known mistakes


def _route(logits, k, *, renormalise=True, over_tokens=False, f_kind="slots", times_E=True, ascending=False,
           detach_P=False, P_from_weights=False, least=False, in_float32=False):
    T, E = logits.shape
    work = torch.float32 if in_float32 else torch.promote_types(logits.dtype, torch.float32)
    p = torch.softmax(logits.to(work), dim=0 if over_tokens else -1)
    top_p, experts = torch.topk(p, k, dim=-1, largest=not least)  # least: the k smallest, smallest first
    if ascending:
        experts, order = experts.sort(dim=-1)
        top_p = top_p.gather(-1, order)
    weights = top_p / top_p.sum(-1, keepdim=True) if renormalise else top_p
    if f_kind == "top1":
        f = F.one_hot(experts[:, 0] if not ascending else torch.topk(p, 1, dim=-1).indices[:, 0], E).float().mean(0)
    else:
        f = F.one_hot(experts, E).sum(1).float().mean(0)
        f = f / k if f_kind == "assignments" else f
    P = p.mean(0).detach() if detach_P else p.mean(0)
    if P_from_weights:  # the chosen, renormalised weights scattered back over the experts
        P = torch.zeros_like(p).scatter(-1, experts, weights).mean(0)
    aux = (E if times_E else 1) * (f * P).sum()
    if in_float32:  # router_logits.float(), never cast back
        return weights, experts, aux
    return weights.to(logits.dtype), experts, aux.to(logits.dtype)


def _variant(**switches):
    def top_k_router(router_logits, k=2):
        return _route(router_logits, k, **switches)
    return top_k_router


MISTAKES = (
    Mistake("no_renormalisation", _variant(renormalise=False)),
    Mistake("softmax_over_tokens", _variant(over_tokens=True)),
    Mistake("f_from_top1", _variant(f_kind="top1")),
    Mistake("aux_without_E", _variant(times_E=False)),
    Mistake("f_over_assignments", _variant(f_kind="assignments")),
    Mistake("experts_ascending", _variant(ascending=True)),
    Mistake("aux_detached", _variant(detach_P=True)),
    Mistake("P_from_chosen_weights", _variant(P_from_weights=True)),
    Mistake("least_likely_experts", _variant(least=True)),
    Mistake("result_left_in_float32", _variant(in_float32=True)),
)


def _bench(g: torch.Generator) -> Inputs:
    T, E, k = 16384, 64, 2
    return Inputs(args={"router_logits": torch.randn(T, E, generator=g), "k": k}, grad_of=("router_logits",),
                  probe=torch.randn(T, k, generator=g))


# `kata check moe-router --bench`: 16k tokens over 64 experts, top-2, forward and the weights' backward.
BENCH = ("T = 16384 tokens, E = 64 experts, k = 2", _bench)
