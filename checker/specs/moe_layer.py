"""Case families for `moe-layer`: E = 4 and E = 8 (Mixtral's shape) with k = 2, top-1 with and without
renormalisation, k = E both ways, norm_topk_prob=False with k = 2 and 3, one token, experts no token chose,
E = k = 2, hidden_dim < dim, float64 both ways, 64 tokens, a positional call under no_grad, the defaults, the
state_dict of a fresh module, then random draws.

Every case builds a fresh module and checks its state_dict (names and shapes: Mixtral's `gate.weight` and
`experts.{e}.w1/w3/w2.weight`, each expert its own), converts it with .float() / .double(), loads random
parameters by name (the gate ~ 2·N(0, 1)/√C so the routing is decisive, the experts ~ N(0, 1)/√fan_in), and
runs x drawn under the **routing margin**: each token's k-th and (k+1)-th router probabilities differ by at
least 1e-3 relative (rows redrawn until so), so top-k on the logits or on the probabilities, in float32 or
float64, chooses the same experts. Compared: out, router_logits, and the gradients of
(out · probe).sum() + (router_logits · probe₂).sum() w.r.t. x and every parameter, a None gradient read as
zeros (an expert no token chose keeps none in Mixtral's own loop).
"""
from __future__ import annotations

from typing import Any

import torch
import torch.nn as nn
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.judge.devices import Simulation
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs._attention import pick, randint, randn
from checker.text.i18n import tr
from checker.specs import _block

PARAMETERS = "parameters"  # Inputs.show key marking the case that only builds the module
POSITIONAL = "positional"  # Inputs.show key: MoELayer(C, I, E, k, flag) by position, forward under no_grad
FRESH = "fresh module"  # what a case returns when the module as built breaks the contract's state_dict
MARGIN = 1e-3  # the routing margin: (p_k - p_{k+1}) / p_k at least this, every token
TOLERANCES = {torch.float32: (1e-4, 1e-5), torch.float64: (1e-5, 1e-5)}  # the llama-block composition rule


def contract_shapes(C: int, I: int, E: int) -> dict[str, tuple[int, ...]]:
    shapes = {"gate.weight": (E, C)}
    for e in range(E):
        shapes.update({f"experts.{e}.w1.weight": (I, C), f"experts.{e}.w3.weight": (I, C),
                       f"experts.{e}.w2.weight": (C, I)})
    return shapes


def weights(g: torch.Generator, C: int, I: int, E: int) -> dict[str, torch.Tensor]:
    """Random parameters by name: a decisive router (2·N(0, 1)/√C) and experts ~ N(0, 1)/√fan_in."""
    params = {}
    for name, shape in contract_shapes(C, I, E).items():
        scale = (2.0 if name == "gate.weight" else 1.0) / shape[1] ** 0.5
        params[name] = randn(g, *shape, scale=scale)
    return params


def short_rows(x: torch.Tensor, gate: torch.Tensor, k: int) -> torch.Tensor:
    """bool (T,): the tokens whose k-th and (k+1)-th router probabilities are closer than MARGIN (relative)."""
    logits = x.reshape(-1, x.shape[-1]).double() @ gate.double().T  # (T, E)
    if k >= logits.shape[-1]:
        return torch.zeros(logits.shape[0], dtype=torch.bool)
    p = torch.softmax(logits, dim=-1).sort(dim=-1, descending=True).values  # (T, E)
    return (p[:, k - 1] - p[:, k]) < MARGIN * p[:, k - 1]


def routable_x(g: torch.Generator, shape: tuple[int, ...], gate: torch.Tensor, k: int, dtype: torch.dtype,
               scale: float = 1.0) -> torch.Tensor:
    """x ~ N(0, scale²) in `dtype`, each token redrawn until the routing margin holds."""
    x = randn(g, *shape, dtype=dtype, scale=scale)
    flat = x.view(-1, shape[-1])
    for _ in range(200):
        short = short_rows(x, gate, k)
        if not bool(short.any()):
            return x
        flat[short] = randn(g, int(short.sum()), shape[-1], dtype=dtype, scale=scale)
    raise AssertionError("no x keeps the routing margin")


def _case(B: int = 2, L: int = 5, C: int = 8, I: int = 16, E: int = 4, k: int = 2, norm: bool = True, *,
          dtype: torch.dtype = torch.float32, scale: float = 1.0, defaults: bool = False, positional: bool = False,
          grads: bool = True):
    def make(g: torch.Generator) -> Inputs:
        params = weights(g, C, I, E)
        x = routable_x(g, (B, L, C), params["gate.weight"], k, dtype, scale)
        init = {"dim": C, "hidden_dim": I, "num_experts": E}
        if not defaults:
            init.update(top_k=k, norm_topk_prob=norm)
        show = {**init, POSITIONAL: True} if positional else dict(init)
        want = grads and not positional
        probe = randn(g, B * L * (C + E), dtype=dtype) if want else None  # out's probe, then router_logits'
        return Inputs(args={"x": x}, init=init, params=params, grad_of=("x",) if want else (), probe=probe,
                      show=show)
    return make


def _shapes(C: int, I: int, E: int, **given: Any):
    def make(g: torch.Generator) -> Inputs:
        init = {"dim": C, "hidden_dim": I, "num_experts": E, **given}
        return Inputs(args={}, init=init, show={PARAMETERS: True, **init})
    return make


def _random(g: torch.Generator) -> Inputs:
    """Small draws, gradients on an eighth of them: a backward through the per-expert dispatch costs twice its forward,
    each gradient case sends and compares 3E + 3 items, and the watch re-check runs every case again (the named
    cases all take gradients)."""
    E = randint(g, 2, 4)
    k = pick(g, [1, 2, 2, 2, min(3, E), randint(g, 1, E)])
    C = randint(g, 2, 32)
    I = pick(g, [randint(g, 1, 48), 2 * C])
    B, L = randint(g, 1, 3), randint(g, 1, 8)
    dtype = pick(g, [torch.float32, torch.float32, torch.float32, torch.float64])
    norm, grads = bool(randint(g, 0, 1)), randint(g, 0, 7) == 0  # one draw whatever the range
    return _case(B, L, C, I, E, k, norm, dtype=dtype, scale=pick(g, [1.0, 1.0, 2.0]), grads=grads)(g)


F64 = torch.float64

FAMILIES = (
    Family("experts_4_top_2", _case(2, 5, 8, 16, 4, 2)),
    Family("mixtral_8_top_2", _case(2, 8, 16, 32, 8, 2)),
    Family("top_1_renormalised", _case(2, 6, 8, 12, 4, 1, True)),
    Family("top_1_raw", _case(2, 6, 8, 12, 4, 1, False)),
    Family("k_equals_experts_renormalised", _case(2, 4, 6, 10, 3, 3, True)),
    Family("k_equals_experts_raw", _case(2, 4, 6, 10, 4, 4, False)),
    Family("raw_top_2", _case(2, 6, 8, 16, 6, 2, False)),
    Family("raw_top_3", _case(2, 5, 8, 12, 6, 3, False)),
    Family("one_token", _case(1, 1, 8, 16, 4, 2)),
    Family("one_token_top_1", _case(1, 1, 8, 16, 4, 1)),
    Family("unused_experts", _case(1, 2, 8, 12, 6, 1)),
    Family("two_experts_top_2", _case(2, 3, 8, 12, 2, 2)),
    Family("hidden_narrower", _case(2, 5, 16, 6, 4, 2)),
    Family("float64_renormalised", _case(2, 5, 8, 16, 4, 2, True, dtype=F64)),
    Family("float64_raw", _case(2, 5, 8, 16, 6, 3, False, dtype=F64)),
    Family("tokens_64", _case(4, 16, 16, 24, 8, 2)),
    Family("scaled_by_4", _case(2, 5, 8, 16, 4, 2, scale=4.0)),
    Family("positional_no_grad", _case(2, 4, 8, 16, 4, 2, False, positional=True)),
    Family("defaults", _case(2, 5, 8, 16, 4, defaults=True)),
    Family("state_dict_defaults", _shapes(32, 56, 8)),
    Family("state_dict_top_1", _shapes(6, 4, 3, top_k=1, norm_topk_prob=False)),
    Family("device_defaults", _case(2, 3, 4, 6, 3, defaults=True), track_device=True),
    Family("device_raw_top_1", _case(2, 3, 4, 6, 2, 1, False), track_device=True),
    Family("random", _random, draws=78),
)


# ---------------------------------------------------------------- the protocol


def call(kata: Any, entry: Any, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Build the module and check its state_dict, convert it, load the parameters by name, run it, and take the
    gradients of (out · probe).sum() + (router_logits · probe₂).sum(). A device case runs whole in the simulation."""
    if PARAMETERS in inputs.show:
        with _block.linear_init_skipped():
            module = entry(**inputs.init)
        return Outcome({name: list(t.shape) for name, t in module.state_dict().items()})
    simulated = spec_api.simulated_device(inputs, track_device)
    if simulated is None:
        return _run(entry, inputs, device)
    with Simulation(simulated, {"x": inputs.args["x"]}) as sim:
        outcome = _run(entry, inputs, sim.device)
    return Outcome(sim.report(outcome.value), sim.report(outcome.extras), sim.report(outcome.args))


def _run(entry: Any, inputs: Inputs, device: torch.device) -> Outcome:
    x = spec_api.place(inputs.args["x"], device)
    if inputs.grad_of:
        x = x.detach().requires_grad_(True)
    args = {"x": x}
    positional = POSITIONAL in inputs.show
    with _block.linear_init_skipped():
        module = entry(*inputs.init.values()) if positional else entry(**inputs.init)
    own = dict(module.named_parameters())  # read once a case: by the fresh check, the load and the gradients
    found = fresh_findings(module, inputs.init, own)
    if found:
        return Outcome({FRESH: found}, {}, args)
    if x.dtype != torch.float32:
        module = spec_api.convert(module, x.dtype)
        own = dict(module.named_parameters())
    _load(module, own, inputs.params)
    if device.type != "cpu":  # built on the CPU: only another (or a simulated) device needs the move
        module.to(device)
        own = dict(module.named_parameters())
    module.eval()
    with torch.no_grad() if positional else torch.enable_grad():
        value = module(x)
    extras = _gradients(value, x, own, inputs.probe) if inputs.probe is not None else {}
    return Outcome(value, extras, args)


def _load(module: nn.Module, own: dict[str, nn.Parameter], params: dict[str, torch.Tensor]) -> None:
    """The module protocol's load by name. The fresh check has just found exactly the contract's parameters, so
    each is copied into its own; any other module (parameters the check let pass otherwise) takes spec.load_params."""
    if own.keys() != params.keys() or any(own[k].shape != v.shape for k, v in params.items()):
        spec_api.load_params(module, params)
        return
    with torch.no_grad():
        for name, value in params.items():
            own[name].copy_(value)


def _gradients(value: Any, x: torch.Tensor, own: dict[str, nn.Parameter], probe: torch.Tensor) -> dict[str, Any]:
    """Backward of (out · probe).sum() + (router_logits · probe₂).sum(); a None gradient counts as zeros (unless
    nothing the loss reads carries a graph: then every gradient is None, "no gradient reached")."""
    leaves = {"x": x, **own}
    terms = []
    if isinstance(value, (tuple, list)):
        start = 0
        for t in value[:2]:
            if not isinstance(t, torch.Tensor) or not t.is_floating_point():
                continue
            part = probe[start:start + t.numel()]
            start += t.numel()
            if t.requires_grad:
                terms.append((t * part.to(device=t.device, dtype=t.dtype).view_as(t)).sum()
                             if part.numel() == t.numel() else t.sum())
    if not terms:
        return {f"grad of {name}": None for name in leaves}
    sum(terms).backward()
    return {f"grad of {name}": leaf.grad if leaf.grad is not None else torch.zeros_like(leaf).detach()
            for name, leaf in leaves.items()}


def fresh_findings(module: nn.Module, init: dict, params: dict[str, nn.Parameter] | None = None
                   ) -> str:
    """How the module as built breaks the contract's state_dict, as "code: names" ("" when it keeps it): the same
    slip gives the same words, so the namer can match them. `params`: its named_parameters(), when read already."""
    args = list(init.values())
    want = contract_shapes(args[0], args[1], args[2])
    named = module.named_parameters() if params is None else params.items()
    own = {name: tuple(t.shape) for name, t in named}
    if own == want and next(module.buffers(), None) is None:
        return ""  # the usual module, found without building a state_dict (a case costs ~3 ms; this was a tenth)
    state = {name: tuple(t.shape) for name, t in module.state_dict().items()}
    missing = [k for k in want if k not in state]
    extra = [k for k in state if k not in want]
    if missing or extra:
        return f"keys: {', '.join(missing)} | {', '.join(extra)}"
    shaped = [f"{k} {state[k]}" for k in want if state[k] != want[k]]
    if shaped:
        return f"shapes: {', '.join(shaped)}"
    own = dict(module.named_parameters())
    every = dict(module.named_parameters(remove_duplicate=False))
    shared = [k for k in want if k not in own and k in every]
    if shared:
        return f"shared: {', '.join(shared)}"
    buffers = [k for k in want if k not in own]
    return f"buffers: {', '.join(buffers)}" if buffers else ""


def compare(kata: Any, case: spec_api.Case, expected: list[Outcome], got: Outcome) -> list[Problem] | None:
    """The shapes cases and every case's fresh module: the state_dict against the contract's; else None."""
    init = case.inputs.init
    built = ", ".join(f"{k}={v!r}" for k, v in init.items())
    if PARAMETERS in case.inputs.show:
        want, have = expected[0].value, got.value
        if have == want:
            return []
        if not isinstance(have, dict):
            return [Problem("params", "", tr("building MoELayer gave no state_dict to read"))]
        shown = lambda d: ", ".join(f"{k} {v}" for k, v in sorted(d.items()))  # noqa: E731
        return [Problem("params", "", tr("a fresh MoELayer({init}) has the state_dict {got}; the contract is {want} "
                                         "(gate.weight [E, C], experts.<e>.w1 / w3 [I, C] and w2 [C, I], no biases)",
                                         init=built, got=shown(have) or tr("none"), want=shown(want)))]
    if not (isinstance(got.value, dict) and FRESH in got.value):
        return None
    code, _, names = str(got.value[FRESH]).partition(": ")
    if code == "keys":
        missing, extra = (part.strip() for part in names.split("|"))
        parts = ([tr("missing {names}", names=missing)] if missing else []) + \
                ([tr("unexpected {names}", names=extra)] if extra else [])
        said = tr("a fresh MoELayer({init}) has the wrong state_dict: {problems}. It is exactly gate.weight and "
                  "experts.<e>.w1.weight, w3.weight, w2.weight for each expert: nn.Linear(..., bias=False), no "
                  "buffers", init=built, problems="; ".join(parts))
    elif code == "shapes":
        said = tr("a fresh MoELayer({init}) has {names}: gate.weight is [E, C], w1 and w3 [I, C], w2 [C, I] "
                  "(nn.Linear stores [out_features, in_features])", init=built, names=names)
    elif code == "shared":
        said = tr("in a fresh MoELayer({init}) {names} are the same tensors as experts.0's: every slot of "
                  "the list holds one expert ([Expert()] * E); build a new one for each: "
                  "nn.ModuleList(Expert(...) for _ in range(num_experts))", init=built, names=_few(names))
    else:
        said = tr("in a fresh MoELayer({init}) {names} are not parameters (buffers or plain tensors): the "
                  "weights must be nn.Parameters, so they train and load by name", init=built, names=_few(names))
    return [Problem("params", "", said)]


def _few(names: str) -> str:
    parts = names.split(", ")
    return ", ".join(parts[:3]) + (", …" if len(parts) > 3 else "")


tolerance_for = _block.scaled_tolerance(TOLERANCES)  # the contract's rule: rtol, atol × max(1, max|expected|)


# ---------------------------------------------------------------- known mistakes


class _Expert(nn.Module):
    def __init__(self, dim, hidden_dim, silu_on_up=False):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.silu_on_up = silu_on_up

    def forward(self, x):
        if self.silu_on_up:
            return self.w2(self.w1(x) * F.silu(self.w3(x)))
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class _MoE(nn.Module):
    """The right layer with switches, one per known mistake; one class, so `kata demo` can write it out."""

    renormalise = "flag"  # flag | never | always: whether the k chosen probabilities are renormalised
    where_swapped = False  # token, slot = torch.where(mask[e]) on the (E, k, T) mask
    overwrite = ""  # "" | "experts" | "slots": out[token] = y in that loop order, instead of adding
    unweighted = False  # the experts' outputs summed without the routing weights
    over_tokens = False  # softmax over the tokens (dim 0)
    least = False  # the k least probable experts
    route_no_grad = False  # the routing weights computed under torch.no_grad()
    silu_on_up = False  # silu(w3 x) · w1 x
    gate_bias = False  # nn.Linear(dim, num_experts) with its default bias
    shared_expert = False  # nn.ModuleList([Expert(...)] * num_experts)
    probs_as_logits = False  # softmax(router_logits) returned as router_logits
    flat_output = False  # out returned as [B·L, C]

    def __init__(self, dim, hidden_dim, num_experts, top_k=2, norm_topk_prob=True):
        super().__init__()
        self.num_experts, self.top_k, self.norm_topk_prob = num_experts, top_k, norm_topk_prob
        self.gate = nn.Linear(dim, num_experts, bias=self.gate_bias)
        if self.shared_expert:
            self.experts = nn.ModuleList([_Expert(dim, hidden_dim, self.silu_on_up)] * num_experts)
        else:
            self.experts = nn.ModuleList(_Expert(dim, hidden_dim, self.silu_on_up) for _ in range(num_experts))

    def route(self, logits):
        p = F.softmax(logits, dim=0 if self.over_tokens else -1)
        weights, chosen = torch.topk(p, self.top_k, dim=-1, largest=not self.least)
        if {"flag": self.norm_topk_prob, "never": False, "always": True}[self.renormalise]:
            weights = weights / weights.sum(dim=-1, keepdim=True)
        return weights, chosen

    def forward(self, x):
        B, L, C = x.shape
        h = x.reshape(-1, C)
        logits = self.gate(h)
        if self.route_no_grad:
            with torch.no_grad():
                weights, chosen = self.route(logits)
        else:
            weights, chosen = self.route(logits)
        out = torch.zeros_like(h)
        mask = F.one_hot(chosen, self.num_experts).permute(2, 1, 0)  # (E, k, T)
        order = range(self.top_k) if self.overwrite == "slots" else [None]
        for j in order:
            for e, expert in enumerate(self.experts):
                if self.where_swapped:
                    token, slot = torch.where(mask[e])
                else:
                    slot, token = torch.where(mask[e])
                if j is not None:
                    token, slot = token[slot == j], slot[slot == j]
                if token.numel() == 0:
                    continue
                y = expert(h[token])
                if not self.unweighted:
                    y = y * weights[token, slot, None]
                if self.overwrite:
                    out[token] = y
                else:
                    out.index_add_(0, token, y)
        out = out if self.flat_output else out.reshape(B, L, C)
        return out, F.softmax(logits, dim=-1) if self.probs_as_logits else logits


def _variant(**switches):
    return type("MoELayer", (_MoE,), switches)


MISTAKES = (
    Mistake("no_renormalisation", _variant(renormalise="never")),
    Mistake("renormalised_always", _variant(renormalise="always")),
    Mistake("where_indices_swapped", _variant(where_swapped=True)),
    Mistake("overwrite_not_add", _variant(overwrite="experts"), variant="experts"),
    Mistake("overwrite_not_add", _variant(overwrite="slots"), variant="slots"),
    Mistake("weights_not_applied", _variant(unweighted=True)),
    Mistake("softmax_over_tokens", _variant(over_tokens=True)),
    Mistake("least_probable_experts", _variant(least=True)),
    Mistake("routing_under_no_grad", _variant(route_no_grad=True)),
    Mistake("silu_on_up_projection", _variant(silu_on_up=True)),
    Mistake("gate_with_bias", _variant(gate_bias=True)),
    Mistake("one_expert_shared", _variant(shared_expert=True)),
    Mistake("probabilities_as_logits", _variant(probs_as_logits=True)),
    Mistake("output_not_reshaped", _variant(flat_output=True)),
)


def _bench(g: torch.Generator) -> Inputs:
    C, I, E = 256, 512, 8
    return Inputs(args={"x": torch.randn(4, 512, C, generator=g)},
                  init={"dim": C, "hidden_dim": I, "num_experts": E}, params=weights(g, C, I, E))


# `kata check moe-layer --bench`: 2048 tokens through 8 experts, top-2, the forward only.
BENCH = ("x [4, 512, 256], I 512, E 8, top-2", _bench)
