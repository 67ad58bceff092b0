"""What a kata's spec module declares, and the default way a case is run.

A spec module (`checker/specs/<kata>.py`) defines `FAMILIES`, a tuple of `Family`. Each family
makes the inputs of one case from a seeded generator; named edge cases come first, random draws
after. Optional hooks in the spec module replace the defaults below:

    call(kata, entry, inputs, device, track_device=False) -> Outcome  # how the entry point is run
    expected(kata, entry, inputs, device) -> [Outcome]    # the reference's accepted answers
    compare(kata, case, expected, got) -> list[Problem] | None  # None = the generic comparison
    matches(kata, case, expected, variant, got) -> bool | None  # for the namer: is the learner's outcome the
                                                           # variant's, where several answers are alike (random
                                                           # draws: the same distribution; integers rounded at
                                                           # ties); None = the generic test
    TOLERANCES = {torch.float32: (rtol, atol)}            # per-dtype overrides
    tolerance_for(case, item, dtype, expected) -> (rtol, atol) | None  # per item ("grad of x"), e.g. scaled by
                                                           # max|expected| or grown with position; None = default
    MISTAKES = (Mistake(...), ...)                         # known wrong variants, for naming bugs
    CONVENTIONS = (Convention(...), ...)                   # several right conventions, one verdict: a file passes
                                                           # when one of them reproduces every case (see Convention)
    BENCH = (label, make)                                  # a large input for `kata check --bench`
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Any, Callable

import torch

from checker.judge import promotion
from checker.judge.devices import Simulation
from checker.errors import KataError
from checker.text.i18n import tr

# (rtol, atol) per dtype: a correct answer computed in another order must pass.
TOLERANCES: dict[torch.dtype, tuple[float, float]] = {
    torch.float64: (1e-7, 1e-9),
    torch.float32: (1e-4, 1e-5),
    torch.float16: (1e-2, 1e-2),
    torch.bfloat16: (2e-2, 2e-2),
}


class _RunDevice:
    """Placeholder in `Inputs.args` for the device the check runs on (mask katas' `device=`)."""

    def __repr__(self) -> str:
        return "<run device>"

    def __deepcopy__(self, memo: dict) -> "_RunDevice":
        return self  # a sentinel: copies of case inputs must still recognise it


RUN_DEVICE = _RunDevice()


@dataclass
class Inputs:
    """Everything one case feeds the entry point."""

    args: dict[str, Any]  # keyword arguments (CPU tensors, arrays, Python values)
    init: dict[str, Any] = field(default_factory=dict)  # modules: __init__ kwargs
    params: dict[str, torch.Tensor] | None = None  # modules: tensors loaded by name (`load_params`)
    train: bool | None = False  # modules: train() or eval(); None: as the module is (a module called again)
    grad_of: tuple[str, ...] = ()  # args whose gradients are compared (modules add every parameter)
    probe: torch.Tensor | None = None  # backward of (first output * probe).sum(); None = .sum()
    show: dict[str, Any] = field(default_factory=dict)  # scalars the report shows (gamma, eps, …)
    tol: tuple[float, float] | None = None  # this case's (rtol, atol), overriding the table
    simulate: str | None = None  # "cuda" / "meta": run as if every tensor lived there (checker/judge/devices.py)
    raises: str | None = None  # the builtin exception the contract demands for these inputs ("ValueError", or
    #                            "ValueError|AssertionError" where either is right): the outcome is then what the
    #                            call did, in words (see `expect_raise`); `show` says why


@dataclass(frozen=True)
class Family:
    """One kind of case. What it tests, in words, is the kata's text: `families.<name>` in content/."""

    name: str  # snake_case; a case is "name" (one draw) or "name.i"
    make: Callable[[torch.Generator], Inputs]
    draws: int = 1
    track_device: bool = False  # run as if the inputs lived on a GPU (cuda:0, simulated: checker/judge/devices.py)
    cpu_only: bool = False  # keep this case on the CPU whatever --device says


@dataclass
class Case:
    name: str
    family: Family
    seed: int
    inputs: Inputs

    @property
    def device_independent(self) -> bool:
        return self.family.cpu_only or self.family.track_device


@dataclass
class Outcome:
    """What running an entry point on one case produced."""

    value: Any  # what the function or forward returned
    extras: dict[str, Any] = field(default_factory=dict)  # gradients, by name
    args: dict[str, Any] = field(default_factory=dict)  # the arguments as passed (for the in-place check)
    layout: dict[str, str] = field(default_factory=dict)  # their strides and offset when passed (`layout`), where known
    convention: int = 0  # an accepted answer's convention (its index in the spec's CONVENTIONS; 0 where it has none)


@dataclass(frozen=True)
class Mistake:
    """A known wrong variant. The report names it when it alone explains the learner's results: wrong
    and matched on every failing case examined, right on the passing ones (checker/judge/mistakes.py).

    Its name and fix are the kata's text: `mistakes.<key>` in content/.
    """

    key: str  # "dones_ignored"
    fn: Callable[..., Any]  # same signature as the entry point (a class for module katas)
    variant: str = ""  # one of several variants of the key: `mistakes.<key>.variants.<variant>` says how it differs


@dataclass(frozen=True)
class Convention:
    """One of several right conventions of a kata, where the contract accepts any one of them applied consistently
    (gpt2-block's GELU: tanh or exact erf; beam search's finished-hypothesis bookkeeping). The spec's `expected` hook
    (or its `call`) runs on each convention's reference; a case passes under a convention when the learner matches
    its answers; the file passes when one convention is matched on every case, and the report names it (or the
    nearest, for a failing file: the one matched on most cases). The known mistakes are judged against that one.

    Its name in words is the kata's text: `conventions.<key>` in content/.
    """

    key: str  # "tanh"
    fn: Callable[..., Any] | None = None  # the convention's reference (the entry point's signature; a class for module
    #                                       katas); None: the kata's reference file
    adapt: Callable[[Any], Any] | None = None  # a known mistake's variant written under this convention (a switch set
    #                                            on its class), for the namer; None: the variants as declared


def case_seed(seed: int, name: str) -> int:
    """Each case's generator depends only on the run seed and its name, so --case reproduces it."""
    return (seed * 1_000_003 + zlib.crc32(name.encode())) % (2**63 - 1)


def case_names(spec: Any) -> list[str]:
    return [name for family in spec.FAMILIES for name in _names(family)]


def build_cases(spec: Any, seed: int, only: str | None = None) -> list[Case]:
    names = case_names(spec)
    if only is not None and only not in names and not any(n.split(".")[0] == only for n in names):
        import difflib

        close = difflib.get_close_matches(only, names, n=3, cutoff=0.4)
        hint = tr(" Did you mean {names}?", names=", ".join(repr(c) for c in close)) if close else ""
        raise KataError(tr("No case named '{name}'.{hint}", name=only, hint=hint))
    cases = []
    for family in spec.FAMILIES:
        for name in _names(family):
            if only is not None and only not in (name, family.name):
                continue
            generator = torch.Generator().manual_seed(case_seed(seed, name))
            inputs = family.make(generator)
            if family.track_device and inputs.simulate is None:
                inputs.simulate = "cuda"  # the reference and the mistakes run there too, so devices compare
            cases.append(Case(name, family, seed, inputs))
    return cases


def _names(family: Family) -> list[str]:
    return [family.name] if family.draws == 1 else [f"{family.name}.{i}" for i in range(family.draws)]


def tolerance(spec: Any, case: Case, dtype: torch.dtype, item: str = "", expected: torch.Tensor | None = None
              ) -> tuple[float, float]:
    """(rtol, atol) for one item of one case: the spec's `tolerance_for` hook, else the case's, else the table."""
    hook = getattr(spec, "tolerance_for", None)
    if hook is not None:
        chosen = hook(case, item, dtype, expected)
        if chosen is not None:
            return chosen
    if case.inputs.tol is not None:
        return case.inputs.tol
    table = {**TOLERANCES, **getattr(spec, "TOLERANCES", {})}
    return table.get(dtype, (0.0, 0.0))


# ---------------------------------------------------------------- the default protocol


def place(value: Any, device: torch.device) -> Any:
    """Move a case's argument to the run device (numpy arrays and Python values stay)."""
    if value is RUN_DEVICE:
        return device
    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, (tuple, list)):  # a cache passed as (k, v)
        return type(value)(place(v, device) for v in value)
    return value


def call(kata: Any, entry: Any, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Run the entry point on one case: build the module, call it, take the gradients asked for.

    A case on a simulated device (`inputs.simulate`, `track_device`, or args that ask for `meta`)
    runs inside checker.judge.devices.Simulation, the reference's and the mistakes' as the learner's: its
    tensors report cuda:0 (or meta), and code a real device would reject raises DeviceProblem.
    """
    simulated = simulated_device(inputs, track_device)
    if simulated is None:
        return _call(kata, entry, inputs, device)
    # The device argument stands for the simulated device, so that problems name it as the learner's code does.
    named = {k: torch.device(simulated) if v is RUN_DEVICE else v for k, v in inputs.args.items()}
    with Simulation(simulated, named) as sim:
        outcome = _call(kata, entry, inputs, sim.device)
    return Outcome(sim.report(outcome.value), sim.report(outcome.extras), sim.report(outcome.args), outcome.layout)


def simulated_device(inputs: Inputs, track_device: bool = False) -> str | None:
    """"cuda" or "meta" when the case runs on a simulated device (see checker/judge/devices.py), else None."""
    if inputs.simulate is not None:
        return inputs.simulate
    if track_device:
        return "cuda"
    asks_meta = any(isinstance(v, torch.device) and v.type == "meta" or isinstance(v, str) and v == "meta"
                    for v in inputs.args.values())
    return "meta" if asks_meta else None


def _call(kata: Any, entry: Any, inputs: Inputs, device: torch.device) -> Outcome:
    if kata.kind == "class":  # a plain class has no default protocol: its spec's `call` hook says how it is driven
        raise TypeError(f"{kata.id} is a class kata: its spec must define a call hook")
    args = {name: place(value, device) for name, value in inputs.args.items()}
    if inputs.raises is not None:
        laid = {name: layout(t) for name, t in args.items() if isinstance(t, torch.Tensor)}
        return Outcome(expect_raise(lambda: entry(**args), inputs.raises), {}, args, laid)
    for name in inputs.grad_of:
        args[name] = args[name].detach().requires_grad_(True)
    laid = {name: layout(t) for name, t in args.items() if isinstance(t, torch.Tensor)}
    module = None
    if kata.kind == "module":
        module = entry(**inputs.init)
        if inputs.params is not None:
            load_params(module, inputs.params)
        if _elsewhere(module, device):
            module.to(device)
        if inputs.train is not None:
            module.train(inputs.train)
    fn = module if module is not None else entry
    if module is not None and next(iter(args), None) == "x":
        # A module's input goes in by position (the rest by name): forward(self, hidden_states),
        # copied from a library, is the contract's forward(self, x) under another name.
        rest = {name: value for name, value in args.items() if name != "x"}
        value = fn(args["x"], **rest)
    else:
        value = fn(**args)
    wants_grads = inputs.grad_of or (module is not None and inputs.probe is not None)
    extras = gradients(value, args, inputs, module, device) if wants_grads else {}
    if module is None and promotion.widened(inputs.args, value):  # which line made float32 float64 (NumPy 2)
        line = promotion.first_float64_line(entry, inputs.args)
        if line is not None:
            extras = {**extras, promotion.MADE_AT: line}
    return Outcome(value, extras, args, laid)


def layout(t: torch.Tensor) -> str:
    """A tensor's strides and storage offset, in words: what `t_`, `as_strided_` or `set_` may change while the
    shape, dtype and values stay (the in-place check compares the words before and after the call)."""
    return f"stride {tuple(t.stride())}, offset {t.storage_offset()}"


def _elsewhere(module: Any, device: torch.device) -> bool:
    """Whether `module.to(device)` could change anything: a parameter or buffer not on `device`, or a module that
    moves itself its own way (its own `to` or `_apply`). nn.Module.to moves parameters and buffers and nothing else,
    so a module already on `device` is left as it is: the call walked every tensor of the module at every step (a
    fifth of kv-cache's learner process, whose hook calls the module step by step)."""
    if not isinstance(module, torch.nn.Module) or type(module).to is not torch.nn.Module.to:
        return True
    for part in module.modules():
        if type(part)._apply is not torch.nn.Module._apply:
            return True
        for tensor in (*part._parameters.values(), *part._buffers.values()):
            if tensor is not None and tensor.device != device:
                return True
    return False


def gradients(value: Any, args: dict, inputs: Inputs, module: Any, device: torch.device) -> dict[str, Any]:
    first = value[0] if isinstance(value, (tuple, list)) and value else value
    if not isinstance(first, torch.Tensor) or not first.requires_grad:
        # The structure check reports a wrong output; a tensor cut off from the graph has no grads.
        extras: dict[str, Any] = {f"grad of {n}": None for n in inputs.grad_of}
        if module is not None:
            extras.update({f"grad of {n}": None for n, _ in module.named_parameters()})
        return extras
    probe = inputs.probe.to(device=first.device, dtype=first.dtype) if inputs.probe is not None else None
    loss = first.sum() if probe is None or probe.shape != first.shape else (first * probe).sum()
    loss.backward()
    extras = {f"grad of {n}": args[n].grad for n in inputs.grad_of}
    if module is not None:
        extras.update({f"grad of {n}": p.grad for n, p in module.named_parameters()})
    return extras


# ---------------------------------------------------------------- cases that expect an error

RAISED = "raised "  # what an expected-error case's outcome starts with when the call raised
RETURNED = "returned a value"
# In the learner's child, whether a NotImplementedError is the untouched stub's (the worker sets it); a case that
# accepts NotImplementedError (verl raises it for a kind it does not know) takes any other one as the raise.
is_stub: Callable[[BaseException], bool] = lambda exc: True


def expect_raise(run: Callable[[], Any], error: str) -> str:
    """What a call that must raise `error` (a builtin exception's name, or several joined by "|") did, in
    words the report and the namer compare: "raised ValueError" (a subclass counts; any of several is
    said as the first, so every accepted error reads alike), "raised KeyError: 'k4'" or "returned a
    value". A stub's NotImplementedError and a simulated device's problem pass through (a NotImplementedError
    the case accepts and the stub did not raise is the raise)."""
    import builtins

    from checker.judge.devices import DeviceProblem

    names = error.split("|")
    wanted = tuple(getattr(builtins, name) for name in names)
    try:
        run()
    except DeviceProblem:
        raise
    except NotImplementedError as exc:
        if NotImplementedError not in wanted or is_stub(exc):
            raise
        return RAISED + names[0]
    except wanted:
        return RAISED + names[0]
    except Exception as exc:  # noqa: BLE001 — the wrong exception is an answer, reported as such
        return f"{RAISED}{type(exc).__name__}: {str(exc)[:120]}"
    return RETURNED


def raised_problems(case: Case, expected: Outcome, got: Outcome) -> list:
    """The comparison of an expected-error case: the learner's call must have raised as the reference's did."""
    from checker.judge.results import Problem

    if got.value == expected.value:
        return []
    why = ", ".join(f"{k}={v!r}" for k, v in case.inputs.show.items()) or tr("these inputs")
    did = got.value if isinstance(got.value, str) else RETURNED
    error = tr(" or ").join(case.inputs.raises.split("|"))
    if did == RETURNED:
        said = tr("expected {error} for {why}, your code returned a value", error=error, why=why)
    else:
        said = tr("expected {error} for {why}, your code {did}", error=error, why=why, did=did)
    return [Problem("raises", "", said)]


class ParamsError(Exception):
    """The learner's module does not have the parameters the contract names."""


# The module protocol's conversions: each converts floating-point parameters and buffers and leaves complex ones
# alone. `module.to(dtype)` would turn a complex buffer (a precomputed RoPE `freqs_cis`) real, dropping its
# imaginary part (torch only warns), so a right module would give wrong outputs at every position > 0.
_CONVERSIONS = {torch.float32: "float", torch.float64: "double", torch.float16: "half", torch.bfloat16: "bfloat16"}


def convert(module: Any, dtype: torch.dtype) -> Any:
    """The module in `dtype` the module protocol's way: `.float()` / `.double()` / `.half()` / `.bfloat16()`."""
    return getattr(module, _CONVERSIONS[dtype])()


def load_params(module: Any, params: dict[str, torch.Tensor]) -> None:
    """Load a case's tensors by name (the module protocol): each is copied into the module's parameter of that name,
    and `named_parameters()` must have exactly these names and shapes. A given name that is one of the module's
    buffers is state the kata's contract names (batchnorm's running statistics; lora's frozen weight, which may be
    a buffer) and is copied into it. Every other buffer (an inv_freq, a cos/sin or complex RoPE table, a causal
    mask), persistent or not, is the module's own: neither loaded nor compared."""
    own = dict(module.named_parameters())
    buffers = dict(module.named_buffers())
    targets = {k: own[k] if k in own else buffers[k] for k in params if k in own or k in buffers}
    missing = [k for k in params if k not in targets]
    extra = [k for k in own if k not in params]
    shaped = [tr("{name} is {got}, expected {expected}", name=k, got=tuple(targets[k].shape), expected=tuple(v.shape))
              for k, v in params.items() if k in targets and tuple(targets[k].shape) != tuple(v.shape)]
    if missing or extra or shaped:
        parts = []
        if missing:
            parts.append(tr("missing {names}", names=", ".join(missing)))
        if extra:
            parts.append(tr("unexpected {names}", names=", ".join(extra)))
        if shaped:
            parts.append("; ".join(shaped))
        raise ParamsError(tr("the module's parameters do not match the contract: {problems}", problems="; ".join(parts)))
    with torch.no_grad():
        for name, value in params.items():
            targets[name].copy_(value)
