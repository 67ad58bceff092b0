"""Case families for `lstm-cell`. A case is one or more sequences run on one module: x of call 1 … x of call N,
split into sequences by `sequences` (lengths); the first sequence starts from a given state (`hx[0]`, `hx[1]`) or
from hx=None, every later one from hx=None (a cell that keeps its last state fails there). The `call` hook threads
the learner's own (h, c) of call t into call t + 1, checks that no call changed the state it was handed, records
every call's h and c ("h after call 2"; the last call's are the outputs h and c), then takes the gradients of
Σ_t (h_t · P_t).sum() + (c_N · Q).sum() (random probes) w.r.t. every x, the given h_0 and c_0 and every parameter —
through the whole sequence, so a state detached between calls fails.

Before anything is loaded the module as built is checked (the module protocol): its parameters are exactly
weight_ih [4H, I], weight_hh [4H, H] and, unless bias=False, bias_ih and bias_hh [4H], trainable and finite. Then
it is converted with `.double()` for a float64 case and the case's parameters are loaded by name.

Tolerances (shared/KATAS-training-2.md): h with the dtype's (rtol, atol); c with atol × max(1, max|c|) (the cell
grows over a sequence); gradients with atol × max(1, max|expected gradient|); a None gradient counts as zeros.
"""
from __future__ import annotations

import math
import sys

import torch
import torch.nn as nn

from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from checker.judge.devices import Simulation
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs._training import pick, randint, randn, uniform
from checker.text.i18n import tr
from checker.specs._state import structure as _describe
from checker.specs._state import unchanged as _same

SEQUENCES = "sequences"  # Inputs.args: the length of each sequence the calls make, e.g. (3, 2)
HX = ("hx[0]", "hx[1]")  # Inputs.args: the given (h_0, c_0) of the first sequence
FRESH = "fresh module"  # Outcome.extras: what the check of the module as built found, ((code, detail), ...)
INPLACE = "states changed in place"  # Outcome.extras: ((call, 0 or 1), ...) for each hx a call wrote into
_BLOCKING = ("keys", "shape")  # findings after which the case's parameters cannot be loaded
_SPECIAL = (FRESH, INPLACE)


def x_key(t: int) -> str:
    return f"x of call {t}"


def param_shapes(I: int, H: int, bias: bool = True) -> dict[str, tuple[int, ...]]:
    """The contract's parameters: torch.nn.LSTMCell's names and shapes."""
    shapes = {"weight_ih": (4 * H, I), "weight_hh": (4 * H, H)}
    if bias:
        shapes.update({"bias_ih": (4 * H,), "bias_hh": (4 * H,)})
    return shapes


def _params(g: torch.Generator, I: int, H: int, bias: bool, dtype: torch.dtype, scale: float) -> dict[str, torch.Tensor]:
    """torch's init, U(-1/√H, 1/√H), drawn in float64 and cast once; `scale` widens it (saturated gates)."""
    bound = scale / math.sqrt(H)
    return {name: ((2 * torch.rand(shape, generator=g, dtype=torch.float64) - 1) * bound).to(dtype)
            for name, shape in param_shapes(I, H, bias).items()}


def _case(B=3, I=4, H=5, sequences=(1,), given=False, bias=None, dtype=torch.float32, x_scale=1.0, w_scale=1.0,
          grads=True):
    """bias None: left out of __init__ (the default, True); given: the first sequence starts from a drawn (h_0, c_0);
    grads False: the forward only (a state written in place then fails as that, not as autograd's error)."""
    def make(g: torch.Generator) -> Inputs:
        N = sum(sequences)
        args = {x_key(t): randn(g, B, I, dtype=dtype, scale=x_scale) for t in range(1, N + 1)}
        if given:
            args[HX[0]] = torch.tanh(randn(g, B, H, dtype=torch.float64)).to(dtype)  # h = o ⊙ tanh(c): inside (-1, 1)
            args[HX[1]] = randn(g, B, H, dtype=dtype)
        args[SEQUENCES] = tuple(sequences)
        init = {"input_size": I, "hidden_size": H}
        if bias is not None:
            init["bias"] = bias
        params = _params(g, I, H, bias is not False, dtype, w_scale)
        probe = randn(g, N + 1, B, H, dtype=dtype) if grads else None  # P_1 … P_N, then Q
        grad_of = tuple(k for k in args if k != SEQUENCES) if grads else ()
        return Inputs(args=args, init=init, params=params, grad_of=grad_of, probe=probe, show=dict(init))
    return make


def _random(g: torch.Generator) -> Inputs:
    I, H, B = randint(g, 1, 8), randint(g, 1, 8), randint(g, 1, 4)
    T = randint(g, 1, 6)
    sequences = (T,) if randint(g, 1, 6) > 1 else (T, randint(g, 1, 3))
    bias = pick(g, [None, None, True, False])
    dtype = torch.float64 if randint(g, 1, 3) == 1 else torch.float32
    scale = pick(g, [1.0, 1.0, 1.0, round(uniform(g, 0.5, 2.0), 2)])
    return _case(B, I, H, sequences, given=bool(randint(g, 0, 1)), bias=bias, dtype=dtype, x_scale=scale)(g)


F64 = torch.float64

FAMILIES = (
    Family("one_step", _case(sequences=(1,))),
    Family("five_steps", _case(sequences=(5,))),
    Family("given_state", _case(sequences=(3,), given=True)),
    Family("given_state_one_step", _case(B=2, I=3, H=4, sequences=(1,), given=True)),
    Family("no_bias", _case(sequences=(4,), bias=False)),
    Family("no_bias_given_state", _case(B=2, I=5, H=3, sequences=(2,), given=True, bias=False)),
    Family("bias_true_explicit", _case(B=2, I=3, H=3, sequences=(2,), bias=True)),
    Family("float64_twelve_steps", _case(B=2, I=3, H=4, sequences=(12,), given=True, dtype=F64)),
    Family("float64_one_step", _case(sequences=(1,), dtype=F64)),
    Family("float32_eight_steps", _case(B=2, I=3, H=4, sequences=(8,))),
    Family("hidden_one", _case(B=3, I=4, H=1, sequences=(4,), given=True)),
    Family("input_one", _case(B=3, I=1, H=4, sequences=(4,))),
    Family("batch_one", _case(B=1, I=4, H=3, sequences=(4,), given=True)),
    Family("wide_input", _case(B=2, I=64, H=2, sequences=(3,), x_scale=0.3)),
    Family("square", _case(B=2, I=6, H=6, sequences=(3,), given=True)),
    Family("saturated", _case(B=3, I=4, H=3, sequences=(4,), given=True, x_scale=6.0, w_scale=2.0)),
    Family("saturated_float64", _case(B=2, I=3, H=3, sequences=(5,), dtype=F64, x_scale=6.0, w_scale=2.0)),
    Family("two_sequences", _case(B=2, I=3, H=4, sequences=(3, 2))),
    Family("two_sequences_given_state", _case(B=2, I=3, H=4, sequences=(2, 3), given=True)),
    Family("state_left_as_given", _case(B=2, I=3, H=4, sequences=(3,), given=True, grads=False)),
    Family("three_sequences_of_one", _case(B=2, I=3, H=3, sequences=(1, 1, 1), dtype=F64)),
    Family("device", _case(B=2, I=3, H=4, sequences=(3,)), track_device=True),
    Family("device_no_bias_given_state", _case(B=2, I=3, H=4, sequences=(2,), given=True, bias=False),
           track_device=True),
    Family("random", _random, draws=80),
)


# ---------------------------------------------------------------- running a case


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Build and check the module, convert it, load the parameters by name, then run the case's sequences call by call,
    threading the module's own (h, c), and take the gradients. A device case runs whole inside the simulation."""
    simulated = spec_api.simulated_device(inputs, track_device)
    if simulated is None:
        return _run(entry, inputs, device)
    with Simulation(simulated, {"x": inputs.args[x_key(1)]}) as sim:
        outcome = _run(entry, inputs, sim.device)
    return Outcome(sim.report(outcome.value), sim.report(outcome.extras), sim.report(outcome.args))


def _run(entry, inputs: Inputs, device: torch.device) -> Outcome:
    args = {name: spec_api.place(value, device) for name, value in inputs.args.items()}
    for name in inputs.grad_of:
        args[name] = args[name].detach().requires_grad_(True)
    module = entry(**inputs.init)
    found = _fresh_findings(module, inputs.init)
    if any(code in _BLOCKING for code, _ in found):
        return Outcome(None, {FRESH: found}, args)
    dtype = args[x_key(1)].dtype
    module = module if dtype == torch.float32 else spec_api.convert(module, dtype)
    if inputs.params is not None:
        spec_api.load_params(module, inputs.params)
    if device.type != "cpu":  # built on the CPU: only another (or a simulated) device needs the move
        module.to(device)
    extras: dict = {FRESH: found}
    hs, cs, changed = [], [], []
    n = 0
    for s, length in enumerate(inputs.args[SEQUENCES]):
        hx = (args[HX[0]], args[HX[1]]) if s == 0 and HX[0] in args else None
        for _ in range(length):
            n += 1
            before = None if hx is None or n == 1 else [(tuple(t.shape), t.dtype, t.detach().clone()) for t in hx]
            value = module(args[x_key(n)]) if hx is None else module(args[x_key(n)], hx)
            if before is not None:  # the state the module returned last time: no call may write into it
                changed += [(n, i) for i, (shape, kind, saved) in enumerate(before) if not _same(hx[i], shape, kind, saved)]
            if not _well_formed(value):
                return Outcome({"call": n, "returned": _describe(value)}, {FRESH: found}, args)
            hs.append(value[0])
            cs.append(value[1])
            if n < sum(inputs.args[SEQUENCES]):
                extras[f"h after call {n}"], extras[f"c after call {n}"] = _kept(value[0]), _kept(value[1])
            hx = (value[0], value[1])
    if inputs.probe is not None:
        extras.update(_gradients(args, inputs, module, hs, cs))
    extras[INPLACE] = tuple(changed)
    return Outcome((_kept(hs[-1]), _kept(cs[-1])), extras, args)


def _gradients(args: dict, inputs: Inputs, module: nn.Module, hs: list, cs: list) -> dict:
    """Backward of Σ_t (h_t · P_t).sum() + (c_N · Q).sum(); a None gradient counts as zeros (unless nothing the loss
    reads carries a graph: then every gradient is None, "no gradient reached")."""
    probe = inputs.probe
    terms = [(h, probe[t]) for t, h in enumerate(hs)] + [(cs[-1], probe[-1])]
    names = list(inputs.grad_of) + [name for name, _ in module.named_parameters()]
    params = dict(module.named_parameters())
    leaves = {name: args[name] if name in args else params[name] for name in names}
    if any(tuple(t.shape) != tuple(p.shape) for t, p in terms) or not any(t.requires_grad for t, _ in terms):
        return {f"grad of {name}": None for name in names}  # a wrong shape or no graph: the comparison says what
    loss = sum((t * p.to(device=t.device, dtype=t.dtype)).sum() for t, p in terms if t.requires_grad)
    loss.backward()
    return {f"grad of {name}": leaf.grad if leaf.grad is not None else torch.zeros_like(leaf).detach()
            for name, leaf in leaves.items()}


def _kept(t: torch.Tensor) -> torch.Tensor:
    """A copy of what a call returned: a later call cannot change what was recorded."""
    return t.detach().clone()


def _well_formed(value) -> bool:
    """(h, c): a tuple of two tensors (torch's return)."""
    return isinstance(value, tuple) and len(value) == 2 and all(isinstance(t, torch.Tensor) for t in value)


def _fresh_findings(module: nn.Module, init: dict) -> tuple[tuple[str, str], ...]:
    """(code, detail) for each way the module as built breaks the contract (() when it keeps it)."""
    want = param_shapes(init["input_size"], init["hidden_size"], init.get("bias", True))
    have = dict(module.named_parameters())
    missing = [k for k in want if k not in have]
    extra = [k for k in have if k not in want]
    found: list[tuple[str, str]] = []
    if missing or extra:
        found.append(("keys", "|".join((", ".join(missing), ", ".join(extra)))))
    for name, shape in want.items():
        if name in have and tuple(have[name].shape) != shape:
            found.append(("shape", f"{name}|{tuple(have[name].shape)}|{shape}"))
    frozen = [k for k in want if k in have and not have[k].requires_grad]
    if frozen:
        found.append(("frozen", ", ".join(frozen)))
    unset = [k for k in want if k in have and tuple(have[k].shape) == want[k] and not bool(torch.isfinite(have[k]).all())]
    if unset:
        found.append(("not_finite", ", ".join(unset)))
    return tuple(found)


def _fresh_problem(code: str, detail: str, init: dict) -> Problem:
    """One finding about the module as built, as the report says it."""
    if code == "keys":
        missing, extra = detail.split("|")
        parts = []
        if missing:
            parts.append(tr("missing {names}", names=missing))
        if extra:
            parts.append(tr("unexpected {names}", names=extra))
        if init.get("bias", True):
            message = tr("the parameters must be exactly torch.nn.LSTMCell's weight_ih, weight_hh, bias_ih and bias_hh "
                         "(nn.Parameter, the four gates stacked in each): {problems}", problems="; ".join(parts))
        else:
            message = tr("with bias=False the parameters must be exactly weight_ih and weight_hh (leave the biases "
                         "out, or set them to None): {problems}", problems="; ".join(parts))
    elif code == "shape":
        name, got, want = detail.split("|")
        message = tr("{name} has shape {got}, expected {want}: the four gates are stacked as rows, [4 * hidden_size, "
                     "…] (i, f, g, o)", name=name, got=got, want=want)
    elif code == "frozen":
        message = tr("{names} do not require grad: every parameter is trainable (nn.Parameter, requires_grad=True)",
                     names=detail)
    else:  # not_finite
        message = tr("{names} hold NaN or inf as built: initialise every parameter (torch's LSTMCell draws "
                     "U(-1/√hidden_size, 1/√hidden_size)), not just torch.empty", names=detail)
    return Problem("rule", FRESH, message)


# ---------------------------------------------------------------- judging


def tolerance_for(case, item: str, dtype: torch.dtype, expected: torch.Tensor | None):
    """c and every gradient: the dtype's atol × max(1, max|expected|); h: the default."""
    if expected is None or not expected.numel() or dtype not in spec_api.TOLERANCES:
        return None
    if not (item == "c" or item.startswith("c after call") or item.startswith("grad of")):
        return None
    rtol, atol = spec_api.TOLERANCES[dtype]
    return rtol, atol * max(1.0, float(expected.detach().double().abs().max()))


def compare(kata, case, expected: list[Outcome], got: Outcome) -> list[Problem]:
    """The module as built, then the structure of every call's return, then the values, then the writes into a
    state handed back."""
    spec = sys.modules[kata.spec_module]
    found = got.extras.get(FRESH) or ()
    problems = [_fresh_problem(code, detail, case.inputs.init) for code, detail in found]
    if got.value is None and found:
        return problems  # the module could not take the case's parameters: nothing else to compare
    if isinstance(got.value, dict):
        return problems + [Problem("structure", "", tr(
            "call {n} returned {what}; forward must return the tuple (h, c), each [B, hidden_size] (torch's order)",
            n=got.value.get("call"), what=got.value.get("returned")))]
    strip = lambda o: Outcome(o.value, {k: v for k, v in o.extras.items() if k not in _SPECIAL}, o.args)  # noqa: E731
    problems += compare_outcome(kata, spec, case, strip(expected[0]), strip(got))
    changed = list(got.extras.get(INPLACE) or ())
    if changed:
        n = changed[0][0]
        names = ", ".join(f"hx[{i}]" for m, i in changed if m == n)
        problems.append(Problem("inplace", f"hx at call {n}", tr(
            "your code changed {names}, the state handed to call {n}, in place: compute the new h and c as new tensors "
            "(c = f * c + i * g) and leave hx as it was — the caller still holds it, and autograd needs it",
            names=names, n=n)))
    return problems


# ---------------------------------------------------------------- known mistakes


class _Cell(nn.Module):
    """The right cell with switches, one per known mistake; one class, so `kata demo` can write it out."""

    order = "ifgo"  # the gates' row blocks: "ifgo" (torch), "ifog" (several tutorials), "ijfo" (TF: j the candidate)
    forget_bias = 0.0  # TF's BasicLSTMCell adds 1.0 to the forget gate's pre-activation
    gate_act = "sigmoid"  # i, f, o
    cand_act = "tanh"  # g
    cell_tanh = True  # h' = o ⊙ tanh(c'), or o ⊙ c'
    output_cell = "new"  # "old": h' = o ⊙ tanh(c), the cell before the update
    input_gate = True  # False: c' = f ⊙ c + g
    coupled = False  # f = 1 − i (a coupled input-forget gate)
    cell_gate = "i"  # "o": c' = f ⊙ c + o ⊙ g
    returns = "hc"  # "ch": (c', h')
    unpack = "hc"  # "ch": h, c read from hx as (c, h)
    biases = "both"  # "ih" or "hh": only one of the two added
    bias_always = False  # the biases registered whatever `bias` says
    detach_state = False  # the incoming (h, c) detached: no gradient into earlier calls
    stateful = None  # "kept" or "detached": the last state kept in the module (as returned, or detached) and used
    #                  when hx is None
    in_place = False  # the new state written into the tensors of hx
    zeros = "new_zeros"  # "float32": torch.zeros(B, H, device=x.device), the default dtype

    def __init__(self, input_size, hidden_size, bias=True):
        super().__init__()
        H = hidden_size
        self.hidden_size = H
        self.weight_ih = nn.Parameter(torch.empty(4 * H, input_size))
        self.weight_hh = nn.Parameter(torch.empty(4 * H, H))
        if bias or self.bias_always:
            self.bias_ih = nn.Parameter(torch.empty(4 * H))
            self.bias_hh = nn.Parameter(torch.empty(4 * H))
        else:
            self.bias_ih = self.bias_hh = None
        for p in self.parameters():
            nn.init.uniform_(p, -1 / math.sqrt(H), 1 / math.sqrt(H))
        self.last = None

    def forward(self, x, hx=None):
        B, H = x.shape[0], self.hidden_size
        if hx is None and self.stateful is not None and self.last is not None:
            hx = self.last
        if hx is None:
            if self.zeros == "float32":
                zeros = torch.zeros(B, H, device=x.device)
            else:
                zeros = x.new_zeros(B, H)
            hx = (zeros, zeros.clone())
        h, c = (hx[1], hx[0]) if self.unpack == "ch" else (hx[0], hx[1])
        if self.detach_state:
            h, c = h.detach(), c.detach()
        z = x @ self.weight_ih.T + h @ self.weight_hh.T
        if self.bias_ih is not None:
            if self.biases in ("both", "ih"):
                z = z + self.bias_ih
            if self.biases in ("both", "hh"):
                z = z + self.bias_hh
        blocks = dict(zip(self.order, z.chunk(4, dim=1)))
        gate = torch.sigmoid if self.gate_act == "sigmoid" else torch.tanh
        i = gate(blocks["i"])
        f = gate(blocks["f"] + self.forget_bias)
        o = gate(blocks["o"])
        g = (torch.tanh if self.cand_act == "tanh" else torch.sigmoid)(blocks["j" if self.order == "ijfo" else "g"])
        if self.coupled:
            f = 1 - i
        added = (o if self.cell_gate == "o" else i) * g if self.input_gate else g
        if self.in_place:
            c.mul_(f).add_(added)
            h.copy_(o * torch.tanh(c))
            c_next, h_next = c, h
        else:
            c_next = f * c + added
            shown = c_next if self.output_cell == "new" else c
            h_next = o * (torch.tanh(shown) if self.cell_tanh else shown)
        if self.stateful == "kept":
            self.last = (h_next, c_next)
        elif self.stateful == "detached":
            self.last = (h_next.detach(), c_next.detach())
        return (c_next, h_next) if self.returns == "ch" else (h_next, c_next)


def _variant(**switches):
    return type("LSTMCell", (_Cell,), switches)


MISTAKES = (
    Mistake("gate_order_ifog", _variant(order="ifog")),
    Mistake("tf_gate_order", _variant(order="ijfo", forget_bias=1.0), variant="forget_bias"),
    Mistake("tf_gate_order", _variant(order="ijfo"), variant="no_forget_bias"),
    Mistake("forget_bias_added", _variant(forget_bias=1.0)),
    Mistake("no_tanh_on_cell", _variant(cell_tanh=False)),
    Mistake("old_cell_in_output", _variant(output_cell="old")),
    Mistake("sigmoid_candidate", _variant(cand_act="sigmoid")),
    Mistake("activations_swapped", _variant(gate_act="tanh", cand_act="sigmoid")),
    Mistake("no_input_gate", _variant(input_gate=False)),
    Mistake("coupled_forget_gate", _variant(coupled=True)),
    Mistake("cell_uses_output_gate", _variant(cell_gate="o")),
    Mistake("c_h_returned", _variant(returns="ch", unpack="ch"), variant="both"),
    Mistake("c_h_returned", _variant(returns="ch"), variant="returned_only"),
    Mistake("hx_unpacked_as_c_h", _variant(unpack="ch")),
    Mistake("one_bias_only", _variant(biases="ih"), variant="ih"),
    Mistake("one_bias_only", _variant(biases="hh"), variant="hh"),
    Mistake("bias_flag_ignored", _variant(bias_always=True)),
    Mistake("state_detached", _variant(detach_state=True)),
    Mistake("stateful_cell", _variant(stateful="detached"), variant="detached"),
    Mistake("stateful_cell", _variant(stateful="kept"), variant="kept"),
    Mistake("state_updated_in_place", _variant(in_place=True)),
    Mistake("float32_zeros", _variant(zeros="float32")),
)


def _bench(g: torch.Generator) -> Inputs:
    B, I, H, T = 64, 256, 512, 64
    args = {x_key(t): torch.randn(B, I, generator=g) for t in range(1, T + 1)}
    args[SEQUENCES] = (T,)
    return Inputs(args=args, init={"input_size": I, "hidden_size": H}, params=_params(g, I, H, True, torch.float32, 1.0),
                  grad_of=tuple(k for k in args if k != SEQUENCES), probe=torch.randn(T + 1, B, H, generator=g))


# `kata check lstm-cell --bench`: backpropagation through 64 steps of a 512-wide cell.
BENCH = ("B = 64, input 256, hidden 512: 64 threaded steps, forward and backward", _bench)
