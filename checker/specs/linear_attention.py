"""Case families for `linear-attention`. A case is a schedule: q, k [B, H, L, D], v [B, H, L, Dv], the
lengths of the calls that split the sequence (`chunks`), optionally a state the code never made
(`state[0]` = S0, `state[1]` = z0: the sums a real 7-token prefix leaves, so z0 > 0) and an eps. The
`call` hook runs the schedule, threading the returned state into the next call, and checks that no
call changed the state it was given; the outputs of every call (joined along L, so a mismatch names
its position), then the final S and z are compared. Gradients (q, k, v and a given state) only where
the schedule is a single call. Every float32 case is drawn so that `F.elu(x) + 1` in float32 stays
within half the tolerance of the exact feature map where(x > 0, x + 1, exp(x)) (redrawn until it does, at
generation time: inputs where all of a query's entries are very negative make φ(q_i) tiny, and its rounding
then reweights the sums)."""
from __future__ import annotations

import sys
from typing import Any

import torch
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs._attention import pick, randint, randn
from checker.text.i18n import tr
from checker.specs._state import structure as _describe
from checker.specs._state import unchanged

CHUNKS, POSITIONAL, NO_GRAD = "chunks", "positional", "no_grad"
STATE = ("state[0]", "state[1]")
INPLACE = "states changed in place"  # extras: ((call, 0 or 1), ...) for every given state a call modified
PREFIX = 7  # a given state is what this many earlier tokens leave

TOLERANCES = {torch.float32: (1e-4, 1e-5), torch.float64: (1e-7, 1e-9)}


def _phi_exact(x: torch.Tensor) -> torch.Tensor:
    return torch.where(x > 0, x + 1, torch.exp(x))


def _sums(phi_k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    return torch.einsum("bhld,bhle->bhde", phi_k, v), phi_k.sum(2)


def _case(B=2, H=2, L=8, D=4, Dv=None, chunks=None, state=False, eps=1e-6, scale=1.0, dtype=torch.float32,
          positional=False, no_grad=False):
    """chunks None: one call on all L tokens. state: a given state. eps None: left out (the default)."""
    def make(g: torch.Generator) -> Inputs:
        for _ in range(50):  # float32: redrawn until either feature map passes (the comparison rule's promise)
            inputs = draw(g)
            if dtype != torch.float32 or _elu_harmless(inputs.args):
                return inputs
        raise AssertionError("no float32 draw where F.elu(x) + 1 stays within half the tolerance")

    def draw(g: torch.Generator) -> Inputs:
        dv = Dv or D
        parts = tuple(chunks) if chunks else (L,)
        n = sum(parts)
        args: dict[str, Any] = {"q": randn(g, B, H, n, D, dtype=dtype, scale=scale),
                                "k": randn(g, B, H, n, D, dtype=dtype, scale=scale),
                                "v": randn(g, B, H, n, dv, dtype=dtype, scale=scale), CHUNKS: parts}
        if state:
            pk = randn(g, B, H, PREFIX, D, scale=scale, dtype=torch.float64)
            pv = randn(g, B, H, PREFIX, dv, scale=scale, dtype=torch.float64)
            S0, z0 = _sums(_phi_exact(pk), pv)
            args[STATE[0]], args[STATE[1]] = S0.to(dtype), z0.to(dtype)
        if eps is not None:
            args["eps"] = eps
        if positional:
            args[POSITIONAL] = True
        if no_grad:
            args[NO_GRAD] = True
        single = len(parts) == 1 and not no_grad
        grad_of = (("q", "k", "v") + (STATE if state else ())) if single else ()
        show = {"L": n, "D": D, "Dv": dv, "chunks": parts, "eps": eps if eps is not None else "default 1e-6"}
        return Inputs(args=args, grad_of=grad_of, probe=randn(g, B, H, n, dv, dtype=dtype) if single else None,
                      show=show)
    return make


def _elu_harmless(args: dict) -> bool:
    """The comparison rule's promise: in float32, `F.elu(x) + 1` and the exact where(x > 0, x + 1, exp(x)) give
    outputs within half the tolerance of each other (so either passes against the reference)."""
    q, k, v = (args[n] for n in ("q", "k", "v"))
    state = (args[STATE[0]], args[STATE[1]]) if STATE[0] in args else None
    eps = args.get("eps", 1e-6)
    fast, _ = _right(q, k, v, state, eps)
    exact, _ = _right(q, k, v, state, eps, phi=_phi_exact)
    fast, exact = fast.double(), exact.double()
    s = max(1.0, float(exact.abs().max()))
    return bool(((fast - exact).abs() <= 0.5 * (1e-4 * exact.abs() + 1e-5 * s)).all())


def _random(g: torch.Generator) -> Inputs:
    B, H, D = randint(g, 1, 2), randint(g, 1, 3), pick(g, [1, 2, 4, 4, 8, 16])
    Dv = pick(g, [D, randint(g, 1, 12)])
    chunks, left = [], randint(g, 1, 24)
    split = randint(g, 0, 1) == 1
    while left:
        chunks.append(min(left, randint(g, 1, left) if split else left))
        left -= chunks[-1]
    dtype = pick(g, [torch.float32, torch.float32, torch.float64])
    return _case(B, H, 0, D, Dv, chunks, state=randint(g, 0, 2) == 0, eps=pick(g, [1e-6, 1e-6, 1e-3]),
                 scale=pick(g, [1.0, 1.0, 2.0, 4.0]), dtype=dtype)(g)


FAMILIES = (
    Family("basic", _case()),
    Family("d_ne_dv", _case(D=3, Dv=7, L=9)),
    Family("d_one", _case(D=1, Dv=5, L=10)),
    Family("dv_one", _case(D=6, Dv=1, L=10)),
    Family("one_token", _case(L=1)),
    Family("given_state", _case(L=6, state=True)),
    Family("given_state_one_token", _case(L=1, state=True)),
    Family("given_state_no_grad", _case(L=5, state=True, no_grad=True)),
    Family("eps_one", _case(L=7, eps=1.0)),
    Family("eps_half_given_state", _case(L=5, eps=0.5, state=True)),
    Family("inputs_scaled_by_4", _case(L=12, scale=4.0)),
    Family("float64", _case(L=10, D=5, Dv=3, dtype=torch.float64)),
    Family("float64_given_state", _case(L=6, state=True, dtype=torch.float64)),
    Family("long_float64", _case(B=1, H=2, L=300, D=8, dtype=torch.float64)),
    Family("long_float32", _case(B=1, H=2, L=300, D=8)),
    Family("prefill_then_decode", _case(chunks=(5, 1, 1, 1))),
    Family("token_by_token", _case(chunks=(1, 1, 1, 1, 1, 1))),
    Family("chunks_3_5_2_7", _case(D=3, Dv=5, chunks=(3, 5, 2, 7))),
    Family("given_state_then_decode", _case(chunks=(1, 1, 1), state=True)),
    Family("given_state_chunks", _case(chunks=(4, 2, 3), state=True, eps=1e-3)),
    Family("float64_token_by_token", _case(chunks=(1, 1, 1, 1, 1), dtype=torch.float64)),
    Family("defaults", _case(L=6, eps=None)),
    Family("positional", _case(L=6, eps=1e-3, positional=True)),
    Family("device", _case(chunks=(4, 1, 1), state=True, eps=1e-3), track_device=True),
    Family("device_defaults", _case(chunks=(3, 2), eps=None), track_device=True),
    Family("device_gradients", _case(L=5, state=True), track_device=True),
    Family("random", _random, draws=80),
)


# ---------------------------------------------------------------- running a schedule


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Call the function chunk by chunk, threading its own returned state into the next call."""
    args = {name: spec_api.place(value, device) for name, value in inputs.args.items()}
    for name in inputs.grad_of:  # single-call cases: q, k, v and a given state are leaves of the graph
        args[name] = args[name].detach().requires_grad_(True)
    with torch.no_grad() if NO_GRAD in args else torch.enable_grad():
        return _run(kata, entry, inputs, args, device, track_device)


def _run(kata, entry, inputs: Inputs, args: dict, device: torch.device, track_device: bool) -> Outcome:
    state = (args[STATE[0]], args[STATE[1]]) if STATE[0] in args else None
    extras: dict[str, Any] = {}
    outs, changed, start = [], [], 0
    for n, length in enumerate(args[CHUNKS], 1):
        piece = {name: args[name][:, :, start:start + length] for name in ("q", "k", "v")}
        start += length
        if state is not None:
            piece["state"] = state
        if "eps" in args:
            piece["eps"] = args["eps"]
        before = None if state is None else [(tuple(t.shape), t.detach().clone()) for t in state]
        fn = _positional(entry) if POSITIONAL in args else entry

        def with_grads(**given):  # gradients taken inside the (simulated) call, so they report its device
            leaves = {}
            if inputs.grad_of:  # single-call cases: the leaves are made here, inside the call
                for name in ("q", "k", "v"):
                    given[name] = leaves[name] = given[name].detach().requires_grad_(True)
                if "state" in given:
                    given["state"] = tuple(t.detach().requires_grad_(True) for t in given["state"])
                    leaves[STATE[0]], leaves[STATE[1]] = given["state"]
            value = fn(**given)
            grads = {}
            if inputs.grad_of and _well_formed(value):
                grads = spec_api.gradients(value, leaves, inputs, None, device)
                if value[0].requires_grad:  # an input the output does not depend on has no gradient: zeros
                    grads = {k: torch.zeros_like(leaves[k[len("grad of "):]]) if g is None else g for k, g in grads.items()}
            return value, tuple(grads.get(f"grad of {n}") for n in inputs.grad_of) if grads else ()

        value, grads = spec_api.call(kata, with_grads, Inputs(args=piece, simulate=inputs.simulate), device,
                                     track_device).value
        grads = dict(zip((f"grad of {n}" for n in inputs.grad_of), grads))
        if before is not None:
            changed += [(n, i) for i, (shape, saved) in enumerate(before) if not unchanged(state[i], shape, saved.dtype, saved)]
        if not _well_formed(value):
            return Outcome({"call": n, "returned": _describe(value)})
        extras.update(grads)
        outs.append(value[0].detach().clone())
        state = value[1]
    try:
        out = outs[0] if len(outs) == 1 else torch.cat(outs, dim=2)
    except RuntimeError:
        return Outcome({"call": len(outs), "returned": ", ".join(_describe(o) for o in outs)})
    extras[INPLACE] = tuple(changed)
    written = {name: args[name] for name in ("q", "k", "v")}  # the engine checks these for writes
    return Outcome((out, *(t.detach().clone() for t in state)), extras, written)


def _positional(entry):
    def positional(q, k, v, state=None, eps=1e-6):
        return entry(q, k, v, state, eps)
    return positional


def _well_formed(value: Any) -> bool:
    """(out, (S, z)), three tensors."""
    return (isinstance(value, (tuple, list)) and len(value) == 2 and isinstance(value[0], torch.Tensor)
            and isinstance(value[1], (tuple, list)) and len(value[1]) == 2
            and all(isinstance(t, torch.Tensor) for t in value[1]))


def expected(kata, entry, inputs: Inputs, device: torch.device) -> list[Outcome]:
    return [call(kata, entry, inputs, device)]


def tolerance_for(case, item: str, dtype: torch.dtype, expected: torch.Tensor | None):
    """Every item (outputs, S, z, gradients): the dtype's rtol, its atol times max(1, max|expected|)."""
    if expected is None or dtype not in TOLERANCES or not expected.is_floating_point():
        return None
    rtol, atol = TOLERANCES[dtype]
    return rtol, atol * max(1.0, float(expected.double().abs().max())) if expected.numel() else atol


def compare(kata, case, expected: list[Outcome], got: Outcome) -> list[Problem]:
    want = expected[0]
    if isinstance(want.value, dict) or isinstance(got.value, dict):
        if want.value == got.value:
            return []
        if isinstance(got.value, dict):
            return [Problem("structure", "", tr("call {n} returned {what}; causal_linear_attention must return "
                                                "(out, (S, z)): the output and the new state",
                                                n=got.value.get("call"), what=got.value.get("returned")))]
        return [Problem("structure", "", tr("your code returned (out, (S, z)) where another structure was expected"))]
    plain = Outcome(want.value, {k: v for k, v in want.extras.items() if k != INPLACE})
    problems = compare_outcome(kata, sys.modules[__name__], case, plain, got)
    allowed = set(want.extras.get(INPLACE, ()))  # the reference changes nothing; a known mistake may
    wrote = [(n, i) for n, i in got.extras.get(INPLACE, ()) if (n, i) not in allowed]
    if wrote:
        first = wrote[0][0]
        names = ", ".join(STATE[i] for n, i in wrote if n == first)
        problems.append(Problem("inplace", "state", tr(
            "your code changed {names}, the state given to call {n}, in place (+=, an in-place op or its .data): "
            "build the new sums as new tensors and leave the caller's state as it was — a caller may continue "
            "the same state twice", names=names, n=first)))
    if allowed - set(got.extras.get(INPLACE, ())):
        problems.append(Problem("inplace", "state", tr("your code leaves the state it is given as it was")))
    return problems


def matches(kata, case, expected: list[Outcome], variant: Outcome, got: Outcome) -> bool | None:
    """For the namer: whether the learner's outcome is the variant's. A feature map that can be negative or zero
    (elu without + 1, no map) makes some denominators φ(q_i)·z_i + eps come near 0, where another summation order
    (a loop, the quadratic form) gives another output; there, "the same function" means most entries agree:
    each tensor item within 1e-3 (relative) on at least 90 % of its entries. None (the generic rule) otherwise."""
    mine, theirs = variant.value, got.value
    if not (isinstance(mine, tuple) and isinstance(theirs, tuple) and len(mine) == len(theirs) == 3):
        return None
    pairs = list(zip(mine, theirs)) + [(variant.extras[k], got.extras.get(k)) for k in variant.extras
                                       if k.startswith("grad of")]
    for a, b in pairs:
        a, b = getattr(a, "data", a), getattr(b, "data", b)
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)) or a.shape != b.shape or a.dtype != b.dtype:
            return None
    if variant.extras.get(INPLACE) != got.extras.get(INPLACE):
        return False
    for a, b in pairs:
        a, b = getattr(a, "data", a).double(), getattr(b, "data", b).double()
        close = ((a - b).abs() <= 1e-3 * (a.abs() + b.abs()) + 1e-6) | (a.isnan() & b.isnan())
        if a.numel() and float(close.double().mean()) < 0.9:
            return False
    return True


# ---------------------------------------------------------------- known mistakes


def _right(q, k, v, state=None, eps=1e-6, phi=None):
    """The contract's computation (the cumulative-sum form), for the generator's check."""
    phi = phi or (lambda x: F.elu(x) + 1)
    pq, pk = phi(q), phi(k)
    S = torch.einsum("bhld,bhle->bhlde", pk, v).cumsum(2)
    z = pk.cumsum(2)
    if state is not None:
        S, z = S + state[0].unsqueeze(2), z + state[1].unsqueeze(2)
    out = torch.einsum("bhld,bhlde->bhle", pq, S) / (torch.einsum("bhld,bhld->bhl", pq, z) + eps).unsqueeze(-1)
    return out, (S[:, :, -1], z[:, :, -1])


_PHI = {"elu1": lambda x: F.elu(x) + 1, "elu": F.elu, "relu": F.relu, "exp": torch.exp, "identity": lambda x: x}


def _variant(phi="elu1", scale_q=False, phi_v=False, sums="causal", normaliser="dot", eps_at="after",
             use_state="yes", keep_time=False, only_out=False, float64_out=False):
    """The right computation with switches, one per known mistake.

    sums: "causal" | "global" (every position sees the whole call) | "exclusive" (j < i).
    normaliser: "dot" | "none" | "sum" (z summed, not dotted with φ(q)). eps_at: "after" | "ignored" | "inside" (z + eps).
    use_state: "yes" | "ignored" | "returned_only" | "in_place" (the caller's tensors updated with +=)."""
    def causal_linear_attention(q, k, v, state=None, eps=1e-6):
        f = _PHI[phi]
        D = q.shape[-1]
        pq, pk = f(q / D ** 0.5 if scale_q else q), f(k)
        vv = f(v) if phi_v else v
        kv = torch.einsum("bhld,bhle->bhlde", pk, vv)
        S, z = kv.cumsum(2), pk.cumsum(2)
        S_new, z_new = S[:, :, -1], z[:, :, -1]  # the sums through the last position, whatever each position saw
        if sums == "global":
            S, z = S[:, :, -1:].expand_as(S), z[:, :, -1:].expand_as(z)
        elif sums == "exclusive":  # shifted by one position, zeros first
            S = torch.cat([torch.zeros_like(S[:, :, :1]), S[:, :, :-1]], dim=2)
            z = torch.cat([torch.zeros_like(z[:, :, :1]), z[:, :, :-1]], dim=2)
        if state is not None:
            S0, z0 = state
            if use_state in ("yes", "in_place"):
                S, z = S + S0.unsqueeze(2), z + z0.unsqueeze(2)
            if use_state != "ignored":
                S_new, z_new = S_new + S0, z_new + z0
            if use_state == "in_place" and not state[0].requires_grad:  # fast-transformers' branch
                with torch.no_grad():
                    state[0].add_(S_new - S0)
                    state[1].add_(z_new - z0)
        num = torch.einsum("bhld,bhlde->bhle", pq, S)
        if normaliser == "none":
            out = num
        else:
            zz = z + eps if eps_at == "inside" else z
            den = zz.sum(-1) if normaliser == "sum" else torch.einsum("bhld,bhld->bhl", pq, zz)
            out = num / (den + (eps if eps_at == "after" else 0.0)).unsqueeze(-1)
        if keep_time:
            S_new = S
            z_new = z
        if float64_out:  # computed in float64 for accuracy, never cast back
            out, S_new, z_new = out.double(), S_new.double(), z_new.double()
        if only_out:
            return out
        return out, (S_new, z_new)
    return causal_linear_attention


def _quadratic(phi: str):
    """A feature map written in the masked quadratic form (φ(Q)φ(K)ᵀ ⊙ tril) V, the state added after: for a map
    that can be negative or zero (elu alone, none at all) some denominators come near 0, where the summation order
    decides the output, so the namer needs the slip in this order too (fla trains with this form)."""
    def causal_linear_attention(q, k, v, state=None, eps=1e-6):
        f = _PHI[phi]
        pq, pk = f(q), f(k)
        L = q.shape[-2]
        keep = torch.tril(torch.ones(L, L, dtype=pq.dtype, device=q.device))
        w = torch.einsum("bhid,bhjd->bhij", pq, pk) * keep
        num, den = w @ v, w.sum(-1)
        S, z = torch.einsum("bhjd,bhje->bhde", pk, v), pk.sum(-2)
        if state is not None:
            num = num + pq @ state[0]
            den = den + torch.einsum("bhid,bhd->bhi", pq, state[1])
            S, z = S + state[0], z + state[1]
        return num / (den + eps).unsqueeze(-1), (S, z)
    return causal_linear_attention


MISTAKES = (
    Mistake("elu_without_plus_one", _variant(phi="elu")),
    Mistake("elu_without_plus_one", _quadratic("elu"), variant="quadratic"),
    Mistake("relu_feature_map", _variant(phi="relu")),
    Mistake("exp_feature_map", _variant(phi="exp")),
    Mistake("no_feature_map", _variant(phi="identity")),
    Mistake("no_feature_map", _quadratic("identity"), variant="quadratic"),
    Mistake("scaled_queries", _variant(scale_q=True)),
    Mistake("feature_map_on_values", _variant(phi_v=True)),
    Mistake("not_causal", _variant(sums="global")),
    Mistake("current_token_excluded", _variant(sums="exclusive")),
    Mistake("no_normaliser", _variant(normaliser="none")),
    Mistake("eps_ignored", _variant(eps_at="ignored")),
    Mistake("eps_inside_dot", _variant(eps_at="inside")),
    Mistake("normaliser_not_dotted", _variant(normaliser="sum")),
    Mistake("state_ignored", _variant(use_state="ignored")),
    Mistake("state_only_in_returned", _variant(use_state="returned_only")),
    Mistake("state_updated_in_place", _variant(use_state="in_place")),
    Mistake("final_state_keeps_time_dim", _variant(keep_time=True)),
    Mistake("returns_only_output", _variant(only_out=True)),
    Mistake("float64_returned", _variant(float64_out=True)),
)


def _bench(g: torch.Generator) -> Inputs:
    B, H, P, steps, D = 1, 8, 512, 256, 64
    n = P + steps
    return Inputs(args={"q": torch.randn(B, H, n, D, generator=g), "k": torch.randn(B, H, n, D, generator=g),
                        "v": torch.randn(B, H, n, D, generator=g), CHUNKS: (P,) + (1,) * steps})


# `kata check linear-attention --bench`: a prefill, then one recurrent step per token on the state.
BENCH = ("B = 1, H = 8, D = Dv = 64: prefill 512 tokens, then 256 steps on the state", _bench)
